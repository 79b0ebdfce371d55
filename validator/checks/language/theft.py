"""The Theft meta-ability granted by Powers and by a class of its own (Super Munchkin):
the roll it needs by the cards granting it, its payment, and fights."""

from __future__ import annotations

from typing import Any

from validator.checks.language.shared import FULL, LOSE, syn_monster, syn_power
from validator.checks.runner import CheckContext, expect_values

THEFT = {"type": "meta_ability", "ability": "theft"}
FINGERS, SLEIGHT, KNACK, KNAVE = "Syn Fingers", "Syn Sleight", "Syn Knack", "Syn Knave"
THEFT_CARDS = [
    syn_power(FINGERS, effects=[THEFT]),
    syn_power(SLEIGHT, effects=[THEFT]),
    syn_power(KNACK, effects=[THEFT]),
    syn_power(KNAVE, effects=[THEFT]),
    syn_power("Syn Brawn", effects=[{"type": "strength", "amount": 1}]),
    # A class with a Theft ability of its own (as the core Thief's): it counts as one more
    # card granting Theft beside a Power.
    {
        "name": "Syn Pickpocket",
        "deck": "door",
        "kind": "class",
        "abilities": [
            {
                "name": "Theft",
                "timing": "outside_combat",
                "cost": {"discard": 1},
                "effects": [
                    {
                        "type": "roll",
                        "outcomes": [
                            {"min": 1, "max": 3, "effects": [LOSE]},
                            {
                                "min": 4,
                                "max": 6,
                                "effects": [{"type": "steal_item", "size": "small"}],
                            },
                        ],
                    }
                ],
            }
        ],
        "notes": "A test class: Theft as the core Thief has it.",
        "encoding": FULL,
    },
    syn_monster("Brute", [LOSE]),
]
# The Super Munchkin rules: Theft takes one discard and a roll of 4 or more; each other card
# granting Theft takes 1 off the roll needed, never below 2. A roll that falls short costs a
# level; one that makes it takes a Small item another player (not in a fight) has.
THEFT_NEEDS = {1: 4, 2: 3, 3: 2, 4: 2}


RING, RAM = "Validator Helm", "Validator Ram"  # a Small item and a Big one


def theft_scenarios(ctx: CheckContext) -> None:
    """Theft's roll by the cards granting it, its payment, and who it takes from."""
    use = {"use": FINGERS, "ability": "theft", "by": "Thief", "discard": ["Validator Door"]}
    _rolls(ctx, use)
    _payments(ctx, use)
    _fights(ctx, use)


def _table(sources: int, *, hand: list[str], victim_items: list[str]) -> list[dict[str, Any]]:
    """The Thief with `sources` Powers granting Theft, and the Mark with `victim_items`."""
    thieves = [FINGERS, SLEIGHT, KNACK, KNAVE][:sources]
    return [
        {"name": "Thief", "level": 4, "in_play": thieves, "hand": hand},
        {"name": "Mark", "level": 3, "in_play": victim_items},
    ]


def _rolls(ctx: CheckContext, use: dict[str, Any]) -> None:
    """The roll Theft needs by the cards granting it, and a good roll with nothing Small."""
    for sources, needed in THEFT_NEEDS.items():
        for roll, succeeds in ((needed, True), (needed - 1, False)):
            if roll < 1:
                continue
            players = _table(sources, hand=["Validator Door"], victim_items=[RING, RAM])
            ctx.run(
                f"Theft with {sources} card(s) granting it, roll {roll}",
                {"players": players, "steps": [use], "dice": [roll]},
                expect_values(
                    levels={"Thief": 4 if succeeds else 3, "Mark": 3},
                    hand_sizes={"Thief": 0},
                    carried={"Thief": [RING] if succeeds else []},
                    in_play={"Mark": sorted([RAM] if succeeds else [RING, RAM])},
                ),
            )
    # A class with Theft beside one Power granting it: two cards, a 3 is enough, a 2 is not.
    for roll, succeeds in ((3, True), (2, False)):
        players = _table(1, hand=["Validator Door"], victim_items=[RING])
        players[0]["in_play"] = ["Syn Pickpocket", FINGERS]
        ctx.run(
            f"Theft with a Power beside a class that has it, roll {roll}",
            {"players": players, "steps": [use], "dice": [roll]},
            expect_values(
                levels={"Thief": 4 if succeeds else 3},
                carried={"Thief": [RING] if succeeds else []},
                in_play={"Mark": [] if succeeds else [RING]},
            ),
        )
    # Nothing Small to take: a good roll takes nothing (the Big item stays), and costs nothing.
    ctx.run(
        "Theft with no Small item to take",
        {
            "players": _table(1, hand=["Validator Door"], victim_items=[RAM]),
            "steps": [use],
            "dice": [6],
        },
        expect_values(levels={"Thief": 4}, hand_sizes={"Thief": 0}, in_play={"Mark": [RAM]}),
    )


def _payments(ctx: CheckContext, use: dict[str, Any]) -> None:
    """Theft refused when paid wrong, and paid with any card in play."""
    refused = [
        ("paid with no card", {**use, "discard": []}, ["Validator Door"]),
        ("paid with two cards", {**use, "discard": ["Validator Door"] * 2}, ["Validator Door"] * 2),
        ("paid with the card granting it", {**use, "discard": [FINGERS]}, ["Validator Door"]),
    ]
    for label, step, hand in refused:
        players = _table(1, hand=hand, victim_items=[RING])
        ctx.run(
            f"Theft {label} is refused",
            {"players": players, "steps": [step], "dice": [6], "expect": {"error": True}},
            expect_values(
                levels={"Thief": 4},
                hand_sizes={"Thief": len(hand)},
                in_play={"Thief": [FINGERS], "Mark": [RING]},
            ),
        )
    # Any card in play pays, another Power or an item (the Super Munchkin rules, Classes).
    for payment in ("Syn Brawn", "Validator Sword"):
        players = _table(1, hand=[], victim_items=[RING])
        players[0]["in_play"] = [FINGERS, payment]
        ctx.run(
            f"Theft paid with {payment} in play",
            {"players": players, "steps": [{**use, "discard": [payment]}], "dice": [4]},
            expect_values(
                levels={"Thief": 4},
                in_play={"Thief": sorted([FINGERS, RING]), "Mark": []},
            ),
        )


def _fights(ctx: CheckContext, use: dict[str, Any]) -> None:
    """Theft refused to a fighting Thief, and taking nothing from a fighting player."""
    # Never while fighting: the Thief's own fight refuses it, with the card kept.
    players = _table(1, hand=["Validator Door"], victim_items=[RING])
    ctx.run(
        "Theft refused to a fighting Thief",
        {
            "players": players,
            "combat": {"fighter": "Thief", "monsters": ["Syn Brute"]},
            "steps": [use],
            "dice": [6],
            "expect": {"error": "in combat"},
        },
        expect_values(hand_sizes={"Thief": 1}, in_play={"Mark": [RING]}),
    )
    # A player in a fight is not stolen from: the Mark fights, so the only Small item is safe.
    players = _table(1, hand=["Validator Door"], victim_items=[RING])
    ctx.run(
        "Theft takes nothing from a fighting player",
        {
            "players": players,
            "combat": {"fighter": "Mark", "monsters": ["Syn Brute"]},
            "steps": [use],
            "dice": [6],
        },
        expect_values(levels={"Thief": 4}, hand_sizes={"Thief": 0}, in_play={"Mark": [RING]}),
    )
