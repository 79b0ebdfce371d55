"""A source behind every fact of the core set (issue 24).

Each core card cites at least one source of its set (the reference's ids, or the code sources
the core audit read), or records an accepted contribution; and each number the reference gives
for a card (Level, Treasures, levels, copies, bonus, Gold, slot, Big, deck, kind, Run Away,
pursuit) is the fixture's, unless the card's provenance records why it differs
(`deviations`). The comparison runs on the real files (../shared/reference beside the
checkout: tests/reference.py) and on altered copies, to show that it notices.
"""

import copy
from typing import Any

import pytest
import yaml

from tests.conftest import FIXTURE_SETS
from tests.reference import reference_file
from validator.engine import (
    CardBase,
    Mate,
    MonsterCard,
    NoPursuit,
    RunAway,
    SetDocument,
    load_set_file,
    parse_set,
)

# The stats a reference card gives as plain values, compared field by field where the card's
# kind has the field (a one-shot has no `big`, whatever the reference writes).
STATS = ("deck", "copies", "level", "treasures", "levels_gained", "bonus", "gold", "slot", "big")
# The sources the core audit read beyond the reference's own list (its README, "Core audit
# (2026-11)"): fdask/munchkin, sellesoft/card, walking-down-the-silence's card classes.
AUDIT_SOURCES = {"fdask", "sellesoft", "wdts-cards"}


def _core() -> SetDocument:
    return load_set_file(FIXTURE_SETS / "munchkin-core.yaml")


def _core_raw() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(
        (FIXTURE_SETS / "munchkin-core.yaml").read_text(encoding="utf-8")
    )
    return data


def _reference() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(reference_file("munchkin-core.yaml").read_text())
    return data


def _runaway(card: CardBase) -> int | None:
    """The card's unconditional Run Away modifier, a Mate's included; None without one."""
    total = None
    for effect in card.effects:
        if isinstance(effect, RunAway) and effect.when is None and effect.per is None:
            total = (total or 0) + effect.amount
        elif isinstance(effect, Mate) and effect.runaway:
            total = (total or 0) + effect.runaway
    return total


def _pursuit(card: CardBase) -> int | None:
    return next((e.max_level for e in card.effects if isinstance(e, NoPursuit)), None)


def differences(document: SetDocument, reference: dict[str, Any]) -> list[str]:
    """Each fact where the set file and the reference disagree and the card's provenance
    records no reason for that field: "<card>.<field>: reference X, fixture Y"."""
    cards = {card.name: card for card in document.cards}
    found: list[str] = []
    for expected in reference["cards"]:
        name = expected["name"]
        card = cards.get(name)
        if card is None:
            found.append(f"{name}: missing from the set file")
            continue
        provenance = document.provenance.get(name)
        explained = {d.field for d in provenance.deviations} if provenance else set()
        ours: dict[str, Any] = {"kind": card.kind_name}
        for stat in STATS:
            if hasattr(card, stat):
                ours[stat] = getattr(card, stat)
        if isinstance(expected.get("runaway"), int):
            ours["runaway"] = _runaway(card)
        if expected.get("no_pursuit_max_level") is not None:
            ours["no_pursuit_max_level"] = _pursuit(card)
        for field, value in ours.items():
            wanted = expected.get(field)
            if wanted is None or field in explained:
                continue
            if value != wanted:
                found.append(f"{name}.{field}: reference {wanted!r}, fixture {value!r}")
    return found


def unsourced(document: SetDocument) -> list[str]:
    """The cards that cite no source and record no accepted contribution, and each cited id
    (readings' included) that the set's sources do not list."""
    listed = {source.id for source in document.sources}
    found = []
    for card in document.cards:
        provenance = document.provenance.get(card.name)
        if provenance is None or not (provenance.sources or provenance.contributions):
            found.append(f"{card.name}: no source")
            continue
        found += [f"{card.name}: {i} is not a source" for i in provenance.cited() - listed]
    return found


def test_every_core_card_has_a_source() -> None:
    assert unsourced(_core()) == []


def test_every_core_number_agrees_with_the_reference_or_says_why() -> None:
    assert differences(_core(), _reference()) == []


def test_the_reference_card_sources_are_kept_and_the_extra_ones_are_the_audits() -> None:
    document = _core()
    for expected in _reference()["cards"]:
        sources = document.provenance[expected["name"]].sources
        assert sources[: len(expected["card_sources"])] == expected["card_sources"]
        assert set(sources[len(expected["card_sources"]) :]) <= AUDIT_SOURCES, expected["name"]


def test_a_card_cites_the_rulebook_only_when_the_rulebook_names_it() -> None:
    """rulebook-002 backs a card only when it names the card (the reference's
    `named_in_rulebook`): the third audit found ten cards citing it for numbers the code
    sources give (Boots of Running Really Fast, Stepladder, Tuba of Charm...)."""
    document = _core()
    named = {c["name"] for c in _reference()["cards"] if c.get("named_in_rulebook")}
    citing = {name for name, p in document.provenance.items() if "rulebook-002" in p.cited()}
    assert citing == named


def test_every_tag_the_reference_gives_is_on_the_card() -> None:
    """The reference's tags, in the language's spelling (`below_waist` is `below-waist`): the
    Wand of Dowsing is a wand, the one Pit Bull's escape can take (third audit)."""
    cards = {card.name: card for card in _core().cards}
    missing = []
    for expected in _reference()["cards"]:
        wanted = {t.lower().replace("_", "-") for t in expected.get("tags") or []}
        have = set(getattr(cards[expected["name"]], "tags", []))
        missing += [f"{expected['name']}: {tag}" for tag in sorted(wanted - have)]
    assert missing == []


def test_the_leperchauns_neighbours_discard_what_they_pick() -> None:
    """Its Bad Stuff: the players on the left and right each choose an item, which is discarded
    (the Deluxe text, hawkinscm): nobody keeps it (third audit)."""
    leperchaun = next(card for card in _core().cards if card.name == "Leperchaun")
    assert isinstance(leperchaun, MonsterCard)
    assert [e.model_dump(exclude_defaults=True) for e in leperchaun.bad_stuff] == [
        {"type": "rivals_discard", "choosers": "left_then_right"}
    ]


def test_the_kneepads_dispute_cites_the_code_sources_not_the_rulebook() -> None:
    """The rulebook names the Kneepads of Allure only in its sample character: neither reading
    of whom they make help is its. hawkinscm reads any other player; fdask, only a player of
    higher Level."""
    provenance = _core().provenance["Kneepads of Allure"]
    (dispute,) = provenance.disputed
    readings = {r.text: r.sources for r in dispute.readings}
    assert all("rulebook-002" not in sources for sources in readings.values())
    assert readings["Any other player (the rule this card plays)."] == ["hawkinscm"]
    assert "fdask" in readings["Only a player of higher Level than the wearer."]


def _altered(change: Any) -> SetDocument:
    data = copy.deepcopy(_core_raw())
    change({card["name"]: card for card in data["cards"]})
    return parse_set(data)


def test_a_number_changed_without_a_reason_is_reported() -> None:
    def tuba_at_plus_one(cards: dict[str, Any]) -> None:
        cards["Tuba of Charm"]["effects"][0]["amount"] = 1  # hawkinscm's lone figure
        cards["Bullrog"]["level"] = 17

    assert differences(_altered(tuba_at_plus_one), _reference()) == [
        "Bullrog.level: reference 18, fixture 17",
        "Tuba of Charm.runaway: reference 3, fixture 1",
    ]


def test_a_recorded_reason_explains_the_difference() -> None:
    def explained(cards: dict[str, Any]) -> None:
        cards["Bullrog"]["level"] = 17
        cards["Bullrog"]["provenance"]["deviations"] = [
            {"field": "level", "reason": "A test: a printing says 17."}
        ]

    assert differences(_altered(explained), _reference()) == []


def test_a_card_without_a_source_is_reported() -> None:
    def bare(cards: dict[str, Any]) -> None:
        del cards["Lame Goblin"]["provenance"]["sources"]

    assert unsourced(_altered(bare)) == ["Lame Goblin: no source"]


@pytest.mark.parametrize("where", ["printings", "disputed"])
def test_a_reading_must_cite_a_listed_source(where: str) -> None:
    reading = {"text": "Another wording.", "sources": ["nowhere"]}
    entry = reading if where == "printings" else {"about": "A question", "readings": [reading] * 2}

    def cites_nowhere(cards: dict[str, Any]) -> None:
        cards["Elf"]["provenance"][where] = [entry]

    with pytest.raises(Exception, match="no source 'nowhere'"):
        _altered(cites_nowhere)
