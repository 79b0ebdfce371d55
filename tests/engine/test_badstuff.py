"""Outcomes: throwing cards away from the hand (`discard_from_hand`), as Super Munchkin's
Trap! Congressional Hearing does. The figures come from the card's rule: 3 cards go; holding
fewer, all go and 1 level is lost; Level never drops below 1 (the core rulebook)."""

from typing import Any

import pytest

from tests.engine.conftest import run, scenario

HEARING: dict[str, Any] = {
    "name": "Test Hearing",
    "deck": "door",
    "kind": "trap",
    "effects": [
        {
            "type": "discard_from_hand",
            "count": 3,
            "if_fewer": [{"type": "lose_levels", "amount": 1}],
        }
    ],
    "encoding": {"status": "full"},
}
# Cards of the core set, to fill a hand.
FILLER = ["Magic Missile", "Wandering Monster", "Curse! Lose a Level", "Net Troll", "Gazebo"]


def _hearing_on(level: int, held: int, card: dict[str, Any] = HEARING) -> dict[str, Any]:
    """Suzan plays the trap on Aric, who holds `held` cards."""
    return scenario(
        cards=[card],
        players=[
            {"name": "Aric", "level": level, "hand": FILLER[:held]},
            {"name": "Suzan", "hand": [card["name"]]},
        ],
        steps=[{"play": card["name"], "by": "Suzan", "on": "Aric"}],
    )


@pytest.mark.parametrize(
    ("level", "held", "level_after", "hand_after"),
    [
        (4, 5, 4, 2),  # three of five go, no level lost
        (4, 3, 4, 0),  # exactly three: the hand goes, no level lost
        (4, 2, 3, 0),  # the rulebook's Erin: both cards go and a level with them
        (4, 0, 3, 0),  # nothing to throw away is fewer than three too
        (1, 2, 1, 0),  # Level 1 stays 1
    ],
)
def test_congressional_hearing_throws_away_three_or_all_and_a_level(
    level: int, held: int, level_after: int, hand_after: int
) -> None:
    document = _hearing_on(level, held)
    document["expect"] = {"levels": {"Aric": level_after}, "hand_sizes": {"Aric": hand_after}}
    result = run(document)
    assert result.passed, result.failures


def test_without_if_fewer_an_empty_hand_takes_the_otherwise_branch() -> None:
    card = {
        **HEARING,
        "name": "Test Small Hearing",
        "effects": [
            {
                "type": "discard_from_hand",
                "count": 2,
                "otherwise": [{"type": "lose_levels", "amount": 2}],
            }
        ],
    }
    empty = _hearing_on(5, 0, card)
    empty["expect"] = {"levels": {"Aric": 3}}
    assert run(empty).passed
    # One card held: it goes, and there is no penalty for the second.
    one = _hearing_on(5, 1, card)
    one["expect"] = {"levels": {"Aric": 5}, "hand_sizes": {"Aric": 0}}
    assert run(one).passed
