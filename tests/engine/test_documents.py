"""Errors of a card document (validator/engine/cards/documents.py): however many problems a
document has, the answer lists the first fifty and counts the rest, and quotes the words it
echoes by their start."""

from typing import Any

import pytest

from tests.factories import monster_document
from validator.engine import CardDocumentError, DocumentError, parse_card


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
