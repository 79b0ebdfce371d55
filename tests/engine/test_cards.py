"""The effect language: parsing, errors with paths and nearest words, dumping, the schema."""

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.engine.conftest import monster
from tests.factories import monster_document
from tests.reference import reference_file
from tests.schema_check import schema_problems
from validator.engine.cards import (
    SCHEMA_PATH,
    CardDocumentError,
    MonsterCard,
    card_json_schema,
    card_json_schema_text,
    dump_card,
    load_set_file,
    parse_card,
)


def errors_of(document: Any) -> list[str]:
    with pytest.raises(CardDocumentError) as caught:
        parse_card(document)
    return [f"{e.path}: {e.message}" for e in caught.value.errors]


def test_core_set_has_every_reference_card(core_set: Any) -> None:
    cards = core_set.cards
    assert len(cards) == 147
    assert sum(c.copies for c in cards) == 168
    assert sum(c.copies for c in cards if c.deck == "door") == 95
    assert sum(c.copies for c in cards if c.deck == "treasure") == 73


def test_core_set_names_match_the_reference(core_set: Any) -> None:
    reference = reference_file("munchkin-core.yaml")
    expected = yaml.safe_load(reference.read_text())["cards"]
    ours = {c.name: c for c in core_set.cards}
    assert sorted(ours) == sorted(c["name"] for c in expected)
    for ref in expected:
        card = ours[ref["name"]]
        assert (card.deck, card.kind_name, card.copies) == (ref["deck"], ref["kind"], ref["copies"])
        for stat in ("level", "treasures", "levels_gained", "bonus", "gold", "slot", "big"):
            if ref.get(stat) is not None and hasattr(card, stat):
                assert getattr(card, stat) == ref[stat], f"{card.name}.{stat}"


def test_every_fixture_card_dumps_back_to_the_same_document(
    core_raw_cards: list[dict[str, Any]],
) -> None:
    for raw in core_raw_cards:
        assert dump_card(parse_card(raw)) == raw, raw["name"]


def test_every_fixture_card_matches_the_published_schema(
    core_raw_cards: list[dict[str, Any]],
) -> None:
    schema = card_json_schema()
    for raw in core_raw_cards:
        assert schema_problems(schema, raw) == [], raw["name"]


def test_schema_file_is_up_to_date() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == card_json_schema_text(), (
        "card.schema.json is stale: run `make schema`"
    )


def test_schema_rejects_an_unknown_key() -> None:
    validator = jsonschema.Draft202012Validator(card_json_schema())
    assert list(validator.iter_errors(monster(levle=3)))


def test_a_vanilla_card_is_not_an_unencoded_card() -> None:
    vanilla = parse_card(monster())
    assert vanilla.encoding.status == "full" and vanilla.effects == []
    with pytest.raises(CardDocumentError) as caught:
        parse_card(monster(encoding={"status": "text_only", "reason": "not read yet"}))
    assert "notes" in str(caught.value)


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (monster(kind="monstr"), "kind: unknown kind 'monstr'; did you mean 'monster'?"),
        (monster(levle=3), "levle: unknown key 'levle'; did you mean 'level'?"),
        (
            monster(bad_stuff=[{"type": "lose_items", "slott": "armor"}]),
            "bad_stuff[0].slott: unknown key 'slott'; did you mean 'slot'?",
        ),
        (
            monster(bad_stuff=[{"type": "lose_items", "slot": "armour"}]),
            "did you mean 'armor'?",
        ),
        (
            monster(bad_stuff=[{"type": "lose_levls", "amount": 2}]),
            "bad_stuff[0].type: unknown type 'lose_levls'; did you mean 'lose_levels'?",
        ),
        (
            monster(effects=[{"type": "strength", "amount": 4, "when": {"rase": "elf"}}]),
            "effects[0].when: unknown condition 'rase'; did you mean 'race'?",
        ),
        (
            monster(
                effects=[{"type": "strength", "amount": 4, "when": {"race": "elf", "sex": "male"}}]
            ),
            "effects[0].when: a condition is a mapping with exactly one key",
        ),
        (monster(tags=["undaed"]), "tags[0]: 'undaed' is not one of"),
        (monster(level="ten"), "level: Input should be a valid integer"),
        (monster(encoding={"status": "ful"}), "encoding.status: unknown status 'ful'"),
        (
            monster(effects=[{"type": "strength", "amount": 2, "when": {"race": "Elf!"}}]),
            "is not a trait name",
        ),
        (monster(bad_stuff=[{"type": "no_help"}]), "belongs in effects"),
        (
            monster(
                bad_stuff=[{"type": "roll", "outcomes": [{"min": 1, "max": 3, "effects": []}]}]
            ),
            "each die face",
        ),
        (monster(level=None), "encoding is 'full' but level"),
    ],
)
def test_errors_name_the_path_and_the_nearest_word(document: Any, expected: str) -> None:
    messages = errors_of(document)
    assert any(expected in m for m in messages), messages


def test_set_file_errors_carry_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(
        "set: {code: broken, name: Broken}\n"
        "cards:\n"
        "  - name: Test Ogre\n"
        "    deck: door\n"
        "    kind: monster\n"
        "    level: 7\n"
        "    treasures: 2\n"
        "    bad_stuff:\n"
        "      - {type: lose_items, slott: armor}\n"
        "    encoding: {status: full}\n"
    )
    with pytest.raises(CardDocumentError) as caught:
        load_set_file(path)
    assert caught.value.source == str(path)
    [error] = caught.value.errors
    assert (error.line, error.path) == (9, "cards[0].bad_stuff[0].slott")
    assert f"{path}:9: cards[0].bad_stuff[0].slott" in caught.value.lines()[0]


def test_duplicate_yaml_keys_and_cards_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "dupes.yaml"
    path.write_text("set: {code: d, name: D}\nset: {code: e, name: E}\ncards: []\n")
    with pytest.raises(CardDocumentError, match="duplicate key 'set'") as caught:
        load_set_file(path)
    assert caught.value.errors[0].line == 2

    card = json.dumps(monster())
    path.write_text(f"set: {{code: d, name: D}}\ncards:\n  - {card}\n  - {card}\n")
    with pytest.raises(CardDocumentError, match="duplicate card 'Test Ogre'") as caught:
        load_set_file(path)
    assert (caught.value.errors[0].path, caught.value.errors[0].line) == ("cards[1].name", 4)


def test_parse_is_typed() -> None:
    card = parse_card(monster(effects=[{"type": "strength", "amount": 4, "when": {"race": "elf"}}]))
    assert isinstance(card, MonsterCard)
    assert card.level == 7
    assert [m for c in card.all_conditions() for m in c.mentions()] == [("race", "elf")]


def _integer_schemas(node: object) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if node.get("type") == "integer":
            found.append(node)
        for value in node.values():
            found += _integer_schemas(value)
    elif isinstance(node, list):
        for value in node:
            found += _integer_schemas(value)
    return found


def test_every_number_of_the_schema_is_bounded_within_a_million() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    integers = _integer_schemas(schema)
    assert len(integers) > 30
    for integer in integers:
        assert -1_000_000 <= int(integer["minimum"]) <= int(integer["maximum"]) <= 1_000_000


@pytest.mark.parametrize(
    ("patch", "path"),
    [
        # A field's own range stays tighter than the language's: an automatic escape is for one
        # or two players, a box holds at most 99 copies, a die shows 1 to 6.
        ({"effects": [{"type": "automatic_escape", "players": 3}]}, "effects[0].players"),
        ({"copies": 100}, "copies"),
        ({"level": 10**30}, "level"),
        ({"level": -1}, "level"),
        ({"effects": [{"type": "strength", "amount": 2_000_000}]}, "effects[0].amount"),
    ],
)
def test_numbers_beyond_their_field_or_the_language_are_refused(
    patch: dict[str, Any], path: str
) -> None:
    with pytest.raises(CardDocumentError) as caught:
        parse_card({**monster_document(), **patch})
    assert [e.path for e in caught.value.errors] == [path]


def test_lists_and_effects_per_card_are_budgeted() -> None:
    strength = {"type": "strength", "amount": 1}
    with pytest.raises(CardDocumentError, match="at most 20 items"):
        parse_card(monster_document(effects=[strength] * 21))
    nested = {"type": "choose", "options": [[strength] * 20, [strength] * 20]}
    with pytest.raises(CardDocumentError, match="at most 40"):
        parse_card(monster_document(effects=[nested, strength]))


def test_a_set_file_read_again_after_an_edit_is_its_new_text(tmp_path: Path) -> None:
    # Reading is cached by the file's whole text, never by its name alone.
    path = tmp_path / "cached.yaml"
    ogre = monster()
    path.write_text(f"set: {{code: c, name: C}}\ncards:\n  - {json.dumps(ogre)}\n")
    assert [getattr(card, "level", None) for card in load_set_file(path).cards] == [ogre["level"]]
    path.write_text(f"set: {{code: c, name: C}}\ncards:\n  - {json.dumps({**ogre, 'level': 9})}\n")
    assert ogre["level"] != 9
    assert [getattr(card, "level", None) for card in load_set_file(path).cards] == [9]


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("Elf", "elf"),
        ("Elves", "elf"),
        ("  CLERICS ", "cleric"),
        ("Dwarves", "dwarf"),
        ("Halflings", "halfling"),
        ("Fry  Cook", "fry cook"),
        ("Kraken-Kin", "kraken-kin"),  # a custom trait: only the case changes
        ("Flames", "flames"),  # "flame" is no official trait: the -s stays
    ],
)
def test_trait_names_are_read_as_players_write_them(written: str, stored: str) -> None:
    effect = {"type": "strength", "amount": 3, "when": {"race": written}}
    card = parse_card(monster(effects=[effect]))
    assert dump_card(card)["effects"][0]["when"] == {"race": stored}
