"""unknown_stats: the stats a card's kind has that are not known yet (issue 18, completeness).

Expectations come from the fixture YAML read as plain data (a key written as null is a stat
the set file does not know) and from the list of each kind's stats in the function's
docstring and docs/completeness.md."""

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import FIXTURE_SETS
from validator.engine import CardBase, CardDocumentError, parse_card, rules_sentences, unknown_stats


def _raw_card(set_code: str, name: str) -> dict[str, Any]:
    """One card of a fixture set as the YAML holds it, without its provenance (which sits
    beside the document). Read alone, so a card elsewhere in the file being edited does not
    matter here."""
    data = yaml.safe_load((FIXTURE_SETS / f"{set_code}.yaml").read_text(encoding="utf-8"))
    raw: dict[str, Any] = next(card for card in data["cards"] if card["name"] == name)
    return {key: value for key, value in raw.items() if key != "provenance"}


def _card(**fields: Any) -> CardBase:
    document = {"name": "Test Card", "deck": "door", "encoding": {"status": "full"}, **fields}
    if document["encoding"]["status"] != "full":
        document.setdefault("notes", "Not all of it is known yet.")
    return parse_card(document)


TEXT_ONLY = {"status": "text_only", "reason": "not all of it is known"}


def test_generic_guy_misses_the_stats_its_set_file_writes_as_null() -> None:
    raw = _raw_card("munchkin-super", "Generic Guy")
    # What the YAML says, independently of the engine: a Level, and which stats are null.
    assert raw["level"] == 14
    # A monster's printed numbers are its stats; the levels it gives are not (see unknown_stats).
    labels = {"level": "Level", "treasures": "Treasures"}
    expected = [label for key, label in labels.items() if key in raw and raw[key] is None]
    assert "Treasures" in expected
    assert unknown_stats(parse_card(raw)) == expected


@pytest.mark.parametrize(
    ("set_code", "name"),
    [("munchkin-core", "Net Troll"), ("munchkin-core", "Boots of Butt-Kicking")],
)
def test_a_card_with_every_stat_written_misses_none(set_code: str, name: str) -> None:
    raw = _raw_card(set_code, name)
    assert raw["encoding"]["status"] == "full"
    assert unknown_stats(parse_card(raw)) == []


def test_a_one_shot_without_a_bonus_misses_nothing_when_its_gold_is_known() -> None:
    # A one-shot's bonus is optional (many have none, e.g. the core Wishing Ring); its Gold
    # is the one stat it must have.
    raw = _raw_card("munchkin-core", "Wishing Ring")
    assert raw["kind"] == "one_shot" and raw.get("bonus") is None and raw["gold"] is not None
    assert unknown_stats(parse_card(raw)) == []
    assert unknown_stats(_card(kind="one_shot", gold=None, encoding=TEXT_ONLY)) == ["Gold"]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            {"kind": "monster", "level": None, "treasures": None, "levels_gained": None},
            ["Level", "Treasures"],
        ),
        ({"kind": "monster", "level": 3, "treasures": None}, ["Treasures"]),
        ({"kind": "monster_enhancer", "strength": None, "treasures": None}, ["Bonus", "Treasures"]),
        ({"kind": "monster_enhancer", "strength": 5, "treasures": None}, ["Treasures"]),
        ({"kind": "item", "bonus": None, "slot": None, "gold": None}, ["Bonus", "Slot", "Gold"]),
        ({"kind": "ship", "bonus": 2, "slot": "ship", "gold": None}, ["Gold"]),
        ({"kind": "one_shot", "bonus": None, "gold": None}, ["Gold"]),
        ({"kind": "ally", "bonus": None}, ["Bonus"]),
        ({"kind": "hireling", "bonus": 1, "gold": None}, []),
        ({"kind": "power", "rank": None}, ["Rank"]),
        ({"kind": "power", "rank": 2}, []),
        ({"kind": "class", "rank": None}, []),
        ({"kind": "curse"}, []),
        ({"kind": "unknown", "deck": None}, []),
    ],
)
def test_each_kind_misses_its_own_stats_in_reading_order(
    fields: dict[str, Any], expected: list[str]
) -> None:
    assert unknown_stats(_card(encoding=TEXT_ONLY, **fields)) == expected


def _fixture_cards() -> list[tuple[str, dict[str, Any]]]:
    cards = []
    for path in sorted(Path(FIXTURE_SETS).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for raw in data["cards"]:
            cards.append((path.stem, {k: v for k, v in raw.items() if k != "provenance"}))
    return cards


def test_a_fully_encoded_fixture_card_never_misses_a_stat() -> None:
    # "full" means every stat is known: the set files and the completeness figures agree.
    checked = 0
    for _, raw in _fixture_cards():
        if raw.get("encoding", {}).get("status") != "full":
            continue
        try:
            card = parse_card(raw)
        except CardDocumentError:  # the loader's tests report a broken card; not this one's
            continue
        assert unknown_stats(card) == [], raw["name"]
        checked += 1
    assert checked > 100  # the core set alone has more fully encoded cards


@pytest.mark.parametrize("kind", ["monster", "monster_enhancer", "item"])
def test_a_face_is_provisional_exactly_when_a_stat_is_missing(kind: str) -> None:
    stats: dict[str, dict[str, Any]] = {
        "monster": {"level": 2, "treasures": 1},
        "monster_enhancer": {"strength": 5, "treasures": 1},
        "item": {"bonus": 1, "slot": "headgear", "gold": 200},
    }
    known = stats[kind]
    assert not rules_sentences(_card(kind=kind, **known)).provisional
    for key in known:
        card = _card(kind=kind, encoding=TEXT_ONLY, **{**known, key: None})
        assert unknown_stats(card) and rules_sentences(card).provisional, key
