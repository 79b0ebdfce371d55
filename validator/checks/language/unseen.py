"""Cards pulled from a hand unseen: at random, not the taker's pick."""

from __future__ import annotations

from typing import Any

from validator.checks.language.shared import FULL
from validator.checks.references import EQUIPMENT
from validator.checks.runner import CheckContext, expect_values

UNSEEN_CARDS: list[dict[str, Any]] = [
    {
        "name": "Syn Blind Grab",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "rivals_take", "takers": "left_then_right", "what": "hand_card"}],
        "encoding": FULL,
    }
]
UNSEEN_SEEDS = 4


def unseen_scenarios(ctx: CheckContext) -> None:
    """A card pulled from a hand without looking (Curse! Lose Two Cards) comes at random: with
    five different cards in the hand, four seeds do not all give the takers the same ones (a
    taker's own pick would; a fair draw repeats itself four times about once in 10,000)."""
    hand = EQUIPMENT[:5]
    taken: set[tuple[str, ...]] = set()
    for seed in range(1, UNSEEN_SEEDS + 1):
        values = ctx.run(
            f"two cards pulled unseen, seed {seed}",
            {
                "seed": seed,
                "players": [
                    {"name": "Aric", "level": 3, "hand": hand},
                    {"name": "Left", "hand": ["Syn Blind Grab"]},
                    {"name": "Right"},
                ],
                "steps": [{"play": "Syn Blind Grab", "by": "Left", "on": "Aric"}],
            },
            expect_values(hand_sizes={"Aric": 3, "Left": 1, "Right": 1}),
        )
        if values is None:
            return
        taken.add((*values["hands"]["Left"], *values["hands"]["Right"]))
    if len(taken) == 1:
        ctx.report.fail(
            f"cards pulled unseen from a hand are the same ones for {UNSEEN_SEEDS} seeds: "
            f"{sorted(taken)[0]}, a pick rather than chance"
        )
