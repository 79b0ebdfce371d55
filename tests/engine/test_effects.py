"""The `discard_from_hand` effect: its rendered text says what the card does, in the order it
happens, and a malformed one is refused with the path to the fault."""

from typing import Any

import pytest

from validator.engine import CardDocumentError, parse_card, render_text


def _trap(effect: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "Test Hearing",
        "deck": "door",
        "kind": "trap",
        "effects": [effect],
        "encoding": {"status": "full"},
    }


def test_the_text_gives_the_count_then_the_short_hand_penalty() -> None:
    text = render_text(
        parse_card(
            _trap(
                {
                    "type": "discard_from_hand",
                    "count": 3,
                    "if_fewer": [{"type": "lose_levels", "amount": 1}],
                }
            )
        )
    )
    assert "discard 3 cards" in text.lower() and "hand" in text
    # The level is lost only with a short hand, so it is said after "fewer".
    assert text.index("fewer") < text.index("lose 1 level")


def test_a_count_of_zero_is_refused_with_its_path() -> None:
    with pytest.raises(CardDocumentError) as caught:
        parse_card(_trap({"type": "discard_from_hand", "count": 0}))
    assert any("count" in (e.path or "") for e in caught.value.errors)
