"""Errors of a card document (validator/engine/cards/documents.py): however many problems a
document has, the answer lists the first fifty and counts the rest, and quotes the words it
echoes by their start."""

from typing import Any

import pytest

from tests.factories import monster_document
from validator.engine import CardDocumentError, DocumentError, parse_card, parse_set


def errors_of(document: dict[str, Any]) -> list[DocumentError]:
    with pytest.raises(CardDocumentError) as caught:
        parse_card(document)
    return caught.value.errors


def test_thousands_of_unknown_keys_in_an_effect_give_fifty_errors_and_a_count() -> None:
    # Issue 34: 150,000 unknown keys in effects[0]; here 2,000 (the cost is the abuse suite's).
    effect = {"type": "strength", "amount": 3, **{f"k{i}": 1 for i in range(2_000)}}
    errors = errors_of(monster_document(effects=[effect]))
    assert len(errors) == 51
    assert errors[0].path == "effects[0].k0" and "unknown key 'k0'" in errors[0].message
    assert errors[49].path == "effects[0].k49"
    assert errors[50].message.startswith("...and 1,950 more errors, not listed")


def test_unknown_keys_at_the_top_are_counted_the_same_way() -> None:
    document = {**monster_document(), **{f"extra{i}": i for i in range(120)}}
    errors = errors_of(document)
    assert len(errors) == 51
    assert "...and 70 more errors" in errors[-1].message


def test_fifty_errors_are_all_listed_without_a_count() -> None:
    document = {**monster_document(), **{f"extra{i}": i for i in range(50)}}
    errors = errors_of(document)
    assert len(errors) == 50
    assert all("unknown key" in error.message for error in errors)


def test_an_error_made_by_hand_is_bounded_too() -> None:
    error = CardDocumentError([DocumentError(f"cards[{i}]", "bad") for i in range(300)])
    assert len(error.errors) == 51
    assert error.errors[-1].message.startswith("...and 250 more errors")
    assert len(CardDocumentError([DocumentError("x", "bad")] * 51).errors) == 51


def test_a_long_key_is_quoted_by_its_start() -> None:
    long_key = "k" * 100_000
    errors = errors_of({**monster_document(), long_key: 1})
    message = errors[0].message
    assert message.startswith("unknown key '" + "k" * 40 + "' (cut; 100,000 characters)")
    assert len(message) < 400


def test_a_long_unknown_word_is_quoted_by_its_start() -> None:
    errors = errors_of(monster_document(deck="d" * 10_000))
    assert any("(cut; 10,000 characters)" in error.message for error in errors)
    assert all(len(str(error)) < 400 for error in errors)


def test_a_card_of_more_than_5000_values_is_refused_whole() -> None:
    # The monster's own values: the map, its 7 keys, 5 stats, `encoding` (map, key, value),
    # `effects` (list, map, 2 keys, 2 values): 22, and 2 per unknown key (key and value).
    def with_unknown_keys(count: int) -> dict[str, Any]:
        keys = {f"k{i}": 1 for i in range(count)}
        return monster_document(effects=[{"type": "strength", "amount": 3, **keys}])

    errors = errors_of(with_unknown_keys(2_490))  # 5,002 values
    # Named where it grew: `effects` holds its list, the map, and 2 + 2,490 keys and values.
    assert [(e.path, e.message) for e in errors] == [
        (
            "effects",
            "a card may hold at most 5,000 values (keys, items, numbers...); 4,986 of them "
            "are here",
        )
    ]
    errors = errors_of(with_unknown_keys(2_489))  # 5,000: validated, and its errors worded
    assert errors[-1].message.startswith("...and 2,439 more errors")


def set_errors(cards: list[dict[str, Any]], **header: Any) -> list[DocumentError]:
    document = {"set": {"code": "big", "name": "Big", **header}, "cards": cards}
    with pytest.raises(CardDocumentError) as caught:
        parse_set(document)
    return caught.value.errors


def test_a_set_of_a_thousand_bad_cards_lists_fifty_errors_and_counts_the_rest() -> None:
    # Issue 34's import: 1,000 cards of 20 misspelt effects each, 20,000 errors.
    effects = [{"type": "strenght", "amount": 1}] * 20
    errors = set_errors([monster_document(f"Ogre {i}", effects=effects) for i in range(1_000)])
    assert len(errors) == 51
    assert errors[0].path == "cards[0].effects[0].type"
    assert errors[0].message.startswith("unknown type 'strenght'; did you mean 'strength'?")
    assert errors[0].message.endswith("(card 'Ogre 0')")
    assert errors[20].path == "cards[1].effects[0].type"  # the second card's first
    assert errors[49].path == "cards[2].effects[9].type"
    assert errors[50].message.startswith("...and 19,950 more errors, not listed")


def test_the_sets_own_errors_come_first_beside_its_cards() -> None:
    cards = [monster_document("Ogre", level="high"), monster_document("Troll", kidn="x")]
    errors = set_errors(cards, nmae="x")
    assert [e.path for e in errors] == ["set.nmae", "cards[0].level", "cards[1].kidn"]


def test_an_oversized_card_in_a_set_is_named_and_the_others_checked() -> None:
    huge = monster_document("Huge", **{f"k{i}": 1 for i in range(3_000)})
    errors = set_errors([huge, monster_document("Troll", kidn="x")])
    # 3,000 keys of one value each: no one key holds the bulk, so the card itself is named.
    assert [e.path for e in errors] == ["cards[0]", "cards[1].kidn"]
    assert "at most 5,000 values" in errors[0].message


def test_a_list_of_valid_words_is_given_once_and_pointed_to_after() -> None:
    # No type is near "zzz": the error lists every effect type, which the second one need not.
    effects = [{"type": "zzz", "amount": 1}]
    errors = set_errors([monster_document(f"Ogre {i}", effects=effects) for i in range(2)])
    first, second = (e.message for e in errors)
    assert first.startswith("unknown type 'zzz'; valid: ") and "strength" in first
    assert second == "unknown type 'zzz'; valid: as listed above (card 'Ogre 1')"
