"""Super Munchkin's Origins and Powers: the Ranks a Level allows, raised by Origins, and
the Powers lost with a level or an Origin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from validator.checks.language.shared import FULL, LOSE, syn_power
from validator.checks.runner import CheckContext, expect_values


def _origin(name: str, amount: int) -> dict[str, Any]:
    return {
        "name": name,
        "deck": "door",
        "kind": "origin",
        "effects": [{"type": "extra_power_rank", "amount": amount}],
        "encoding": FULL,
    }


POWER_CARDS = [
    _origin("Syn Spider Bite", 2),
    _origin("Syn Lab Accident", 1),
    syn_power("Syn Might", effects=[{"type": "strength", "amount": 1}]),
    {**syn_power("Syn Blaze", effects=[{"type": "strength", "amount": 2}]), "rank": 2},
    {**syn_power("Syn Nova", effects=[{"type": "strength", "amount": 3}]), "rank": 3},
    {"name": "Syn Hex", "deck": "door", "kind": "curse", "effects": [LOSE], "encoding": FULL},
    {
        "name": "Syn Doom",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "death"}],
        "encoding": FULL,
    },
    {
        "name": "Syn Origin Thief",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "lose_character_card", "axis": "origin"}],
        "encoding": FULL,
    },
]
RANKS = {"Syn Might": 1, "Syn Blaze": 2, "Syn Nova": 3}


def power_scenarios(ctx: CheckContext) -> None:
    """Origins played, Powers within the Rank allowed, and Powers lost with it."""
    _origins_and_ranks(ctx)
    _powers_lost(ctx)


def _origins_and_ranks(ctx: CheckContext) -> None:
    """Origins played on one's turn, and Powers within the Rank the Level and Origins allow."""
    # Super Munchkin rules: any number of Origins; Powers up to a total Rank of the Level,
    # raised by what the Origins add; Origins lost at death.
    ctx.run(
        "two Origins played on one's turn",
        {
            "players": [
                {"name": "Amanda", "level": 2, "hand": ["Syn Spider Bite", "Syn Lab Accident"]},
                {"name": "Erin"},
            ],
            "steps": [
                {"play": "Syn Spider Bite", "by": "Amanda"},
                {"play": "Syn Lab Accident", "by": "Amanda"},
            ],
            "expect": {"in_play": {"Amanda": ["Syn Spider Bite", "Syn Lab Accident"]}},
        },
        expect_values(hand_sizes={"Amanda": 0}),
    )
    ctx.run(
        "an Origin is refused on another player's turn",
        {
            "players": [{"name": "Erin"}, {"name": "Amanda", "hand": ["Syn Spider Bite"]}],
            "steps": [{"play": "Syn Spider Bite", "by": "Amanda"}],
            "expect": {"error": "own turn"},
        },
        expect_values(hand_sizes={"Amanda": 1}),
    )
    for level, origins, power, allowed in (
        (2, [], "Syn Blaze", True),  # Rank 2 at Level 2
        (2, [], "Syn Nova", False),  # Rank 3 above Level 2
        (2, ["Syn Lab Accident"], "Syn Nova", True),  # Level 2 + 1
        (1, ["Syn Spider Bite"], "Syn Nova", True),  # Level 1 + 2
        (1, ["Syn Lab Accident"], "Syn Nova", False),  # Level 1 + 1
    ):
        document: dict[str, Any] = {
            "players": [
                {"name": "Amanda", "level": level, "in_play": origins, "hand": [power]},
                {"name": "Erin"},
            ],
            "steps": [{"play": power, "by": "Amanda"}],
        }
        if not allowed:
            document["expect"] = {"error": True}
        ctx.run(
            f"a Rank {RANKS[power]} Power at Level {level} with {origins or 'no Origin'}",
            document,
            expect_values(hand_sizes={"Amanda": 0 if allowed else 1}),
        )


def _powers_lost(ctx: CheckContext) -> None:
    """Powers discarded when a level or an Origin is lost, down to what fits."""

    # Losing a level below the Powers' total Rank discards Powers (the player's pick) until
    # what is left fits the new Level.
    def fits(level: int) -> Callable[[dict[str, Any]], str | None]:
        def accept(values: dict[str, Any]) -> str | None:
            kept = [c for c in values["in_play"]["Amanda"] if c in RANKS]
            total = sum(RANKS[c] for c in kept)
            if values["levels"]["Amanda"] != level:
                return f"expected Level {level}, got {values['levels']['Amanda']}"
            if total > level or not kept:
                return f"the Powers kept {kept} (Rank {total}) do not fit Level {level}"
            if len(kept) == 2:
                return f"expected a Power discarded, kept {kept}"
            return None

        return accept

    ctx.run(
        "a level lost below the Powers' Rank",
        {
            "players": [
                {"name": "Amanda", "level": 3, "in_play": ["Syn Blaze", "Syn Might"]},
                {"name": "Bob", "hand": ["Syn Hex"]},
            ],
            "steps": [{"play": "Syn Hex", "by": "Bob", "on": "Amanda"}],
        },
        fits(2),
    )
    # Death takes the Origins: the Powers they made room for go too, down to the Level.
    ctx.run(
        "death discards the Origins and the Powers they made room for",
        {
            "players": [
                {"name": "Amanda", "level": 2, "in_play": ["Syn Spider Bite", "Syn Nova"]},
                {"name": "Bob", "hand": ["Syn Doom"]},
            ],
            "steps": [{"play": "Syn Doom", "by": "Bob", "on": "Amanda"}],
            "expect": {
                "dead": ["Amanda"],
                "not_in_play": {"Amanda": ["Syn Spider Bite", "Syn Nova"]},
            },
        },
        expect_values(levels={"Amanda": 2}),
    )
    # An Origin lost any other way stops making room too (the Powers' Rank rule, Origins
    # excepted): a Rank 3 Power at Level 2 goes with the Origin that allowed it.
    ctx.run(
        "an Origin lost to a curse takes the Powers it made room for",
        {
            "players": [
                {"name": "Amanda", "level": 2, "in_play": ["Syn Spider Bite", "Syn Nova"]},
                {"name": "Bob", "hand": ["Syn Origin Thief"]},
            ],
            "steps": [{"play": "Syn Origin Thief", "by": "Bob", "on": "Amanda"}],
            "expect": {"not_in_play": {"Amanda": ["Syn Spider Bite", "Syn Nova"]}},
        },
        expect_values(levels={"Amanda": 2}),
    )
