"""Every fixture card says where its facts come from, as the reference dataset does (issue 18).

The figures written here come from the issue and the reference's README (second research pass);
where ../shared/reference sits beside the checkout, each set file is also compared with it card
by card. Without it those comparisons skip on a developer's clone, and fail in CI
(tests/reference.py)."""

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests import reference as shared_reference
from tests.conftest import FIXTURE_SETS
from tests.reference import reference_file
from validator.engine import SetDocument, load_set_file

# Cards per set: the first reference files' entries plus the names the second research pass
# added (the issue: Super +18, Booty +1, SpongeBob +10; Impossible and core gained none).
CARDS_PER_SET = {
    "munchkin-core": 147,
    "munchkin-super": 33 + 18,
    "munchkin-booty": 59 + 1,
    "munchkin-spongebob": 34 + 10,
    "munchkin-impossible": 36,
}
# The reference's own word for how sure it is of a card's facts.
CONFIDENCE_WORDS = {"high", "medium", "low"}
# Names from one informal source that may differ from the printed title (reference, Super only),
# and those the reference's third audit (its README) found uncertain too: four names the
# rulebook's credits give (auction winners drawn into the game, not a card list) and
# Treemendous (one mailing-list post).
THIRD_AUDIT_UNCERTAIN = {
    "munchkin-super": {
        "Charisma",
        "Mr. Everywhere",
        "Captain Corrosion",
        "Baron Boron",
        "Treemendous",
    }
}
UNCERTAIN_NAMES = {
    "munchkin-super": {"Disk Man", "Wimpy Thugs"} | THIRD_AUDIT_UNCERTAIN["munchkin-super"]
}
# The slots the reference guessed from a card's name alone (its third audit: inferences).
SLOTS_FROM_THE_NAME = {
    "munchkin-booty": {"Thigh Boots", "Booty Boots", "Spanish Helmet"},
    "munchkin-spongebob": {"Squeaky Boots", "Glove World Hat", "Kah-rah-tay Headgear"},
    "munchkin-super": {"Electro-Mento Hat"},
}
# The stats the reference gives as numbers; where it knows one, the fixture must agree.
NUMBERS = ("level", "treasures", "levels_gained", "copies")
# Which field of a source says where it is, by kind.
LOCATOR = {"rulebook": "seed", "code": "repo", "web": "url"}

CODES = sorted(CARDS_PER_SET)
# The code sources the core audit read beyond the reference's list (its README, "Core audit
# (2026-11)"); the core set file lists and cites them too (issue 24).
AUDIT_SOURCES = {"munchkin-core": ["fdask", "sellesoft", "wdts-cards"]}


def fixture(code: str) -> SetDocument:
    return load_set_file(FIXTURE_SETS / f"{code}.yaml")


def reference(code: str) -> dict[str, Any]:
    path = reference_file(f"{code}.yaml")
    document: dict[str, Any] = yaml.safe_load(path.read_text())
    return document


def test_every_set_file_is_covered() -> None:
    assert sorted(path.stem for path in FIXTURE_SETS.glob("*.yaml")) == CODES


@pytest.mark.parametrize("code", CODES)
def test_every_card_has_provenance_citing_its_sets_sources(code: str) -> None:
    document = fixture(code)
    listed = {source.id for source in document.sources}
    assert listed, f"{code} lists no sources"
    for card in document.cards:
        provenance = document.provenance.get(card.name)
        assert provenance is not None, f"{code} / {card.name}: no provenance"
        assert provenance.sources, f"{code} / {card.name}: no source"
        assert provenance.confidence in CONFIDENCE_WORDS, f"{code} / {card.name}"
        assert set(provenance.sources) <= listed, f"{code} / {card.name}: {provenance.sources}"
        assert len(set(provenance.sources)) == len(provenance.sources), f"{code} / {card.name}"


@pytest.mark.parametrize("code", CODES)
def test_every_source_says_where_it_is(code: str) -> None:
    for source in fixture(code).sources:
        assert getattr(source, LOCATOR[source.kind]), f"{code} / {source.id}"
        assert source.used_for, f"{code} / {source.id}"


@pytest.mark.parametrize("code", CODES)
def test_the_number_of_cards_per_set(code: str) -> None:
    assert len(fixture(code).cards) == CARDS_PER_SET[code]


@pytest.mark.parametrize("code", CODES)
def test_the_number_of_cards_matches_the_reference(code: str) -> None:
    ref = reference(code)
    assert len(ref["cards"]) == ref["coverage"]["cards_listed"]
    assert len(fixture(code).cards) == ref["coverage"]["cards_listed"]


@pytest.mark.parametrize("code", CODES)
def test_the_uncertain_names(code: str) -> None:
    document = fixture(code)
    uncertain = {name for name, p in document.provenance.items() if p.name_uncertain}
    assert uncertain == UNCERTAIN_NAMES.get(code, set())


def test_super_munchkin_has_exactly_seven_provisional_cards() -> None:
    document = fixture("munchkin-super")
    assert sum(1 for p in document.provenance.values() if p.name_uncertain) == 7


@pytest.mark.parametrize("code", CODES)
def test_the_slots_guessed_from_the_name_are_marked_inferred(code: str) -> None:
    """A slot the reference guessed from the card's name is stored as that, not as a fact:
    `field_confidence: {slot: inferred}` (an export keeps it; a YAML comment would not)."""
    document = fixture(code)
    inferred = {
        name: dict(p.field_confidence)
        for name, p in document.provenance.items()
        if p.field_confidence
    }
    assert inferred == {name: {"slot": "inferred"} for name in SLOTS_FROM_THE_NAME.get(code, ())}


@pytest.mark.parametrize("code", CODES)
def test_the_reference_says_each_inferred_slot_comes_from_the_name(code: str) -> None:
    said = {
        card["name"]
        for card in reference(code)["cards"]
        if "slot inferred from" in f"{card.get('derived_from') or ''} {card.get('notes') or ''}"
    }
    assert said == SLOTS_FROM_THE_NAME.get(code, set())


@pytest.mark.parametrize("code", CODES)
def test_every_code_source_is_pinned_or_says_why_not(code: str) -> None:
    """A code source names the commit its facts were read at; one without (the reference
    recorded none) says so in its entry."""
    for source in fixture(code).sources:
        if source.kind == "code" and source.commit is None:
            assert "No commit pinned" in (source.used_for or ""), f"{code} / {source.id}"


@pytest.mark.parametrize("code", CODES)
def test_the_sources_are_the_references(code: str) -> None:
    ref = reference(code)
    ours = {source.id: source for source in fixture(code).sources}
    assert sorted(ours) == sorted(
        [source["id"] for source in ref["sources"]] + AUDIT_SOURCES.get(code, [])
    )
    for source in ref["sources"]:
        mine = ours[source["id"]]
        for field in ("url", "repo", "path", "commit", "seed"):
            assert getattr(mine, field) == source.get(field), f"{code} / {source['id']}.{field}"


@pytest.mark.parametrize("code", CODES)
def test_each_card_agrees_with_the_reference(code: str) -> None:
    ref = reference(code)
    document = fixture(code)
    cards = {card.name: card for card in document.cards}
    assert sorted(cards) == sorted(card["name"] for card in ref["cards"])
    for expected in ref["cards"]:
        name = expected["name"]
        provenance = document.provenance[name]
        assert provenance.confidence == expected["confidence"], f"{code} / {name}"
        uncertain = bool(expected.get("name_uncertain"))
        uncertain |= name in THIRD_AUDIT_UNCERTAIN.get(code, set())
        assert provenance.name_uncertain == uncertain, name
        # The reference's sources first, then any of the audit's.
        cited = expected["card_sources"]
        assert provenance.sources[: len(cited)] == cited, f"{code} / {name}"
        assert set(provenance.sources[len(cited) :]) <= set(AUDIT_SOURCES.get(code, [])), name
        for stat in NUMBERS:
            if expected.get(stat) is not None:
                assert getattr(cards[name], stat) == expected[stat], f"{code} / {name}.{stat}"


def test_the_second_research_pass_numbers_for_impossible() -> None:
    """The figures the pass found (reference README): the weakest and strongest foes' Levels."""
    cards = {card.name: card for card in fixture("munchkin-impossible").cards}
    assert getattr(cards["Defective Defector"], "level") == 1  # noqa: B009 - a monster's stat
    assert getattr(cards["Super Spy"], "level") == 20  # noqa: B009
    assert cards["Super Spy"].copies == 1


@pytest.mark.parametrize(("required", "outcome"), [(False, "Skipped"), (True, "Failed")])
def test_a_missing_reference_skips_on_a_clone_and_fails_in_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, required: bool, outcome: str
) -> None:
    monkeypatch.setattr(shared_reference, "REFERENCE", tmp_path / "no-reference")
    monkeypatch.setattr(shared_reference, "REQUIRED", required)
    with pytest.raises(BaseException) as caught:
        reference_file("munchkin-core.yaml")
    assert type(caught.value).__name__ == outcome
