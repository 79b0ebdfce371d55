"""One-shots for some players only: for the monster's side, or for an Elf."""

from __future__ import annotations

from typing import Any

from validator.checks.language.shared import FULL, LOSE, syn_monster
from validator.checks.runner import CheckContext, expect_values

ONE_SHOT_CARDS = [
    # The first card's conditions bring their trait cards (an Elf) into the library.
    {
        "name": "Syn Elf Pie",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 3,
        "gold": 100,
        "side": "either",
        "usable_by": {"race": "elf"},
        "encoding": FULL,
    },
    syn_monster("Goon", [LOSE], level=6),
    # A one-shot whose effect holds only for an Elf playing it (the printed ones with a
    # condition on an effect are only kills and doubles).
    {
        "name": "Syn Elf Charm",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 0,
        "gold": 100,
        "side": "player",
        "effects": [{"type": "strength", "amount": 4, "when": {"race": "elf"}}],
        "encoding": FULL,
    },
    # One-shots whose escape or removal works only for an Elf playing them.
    {
        "name": "Syn Elf Wings",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 0,
        "gold": 100,
        "side": "player",
        "effects": [{"type": "automatic_escape", "when": {"race": "elf"}}],
        "encoding": FULL,
    },
    {
        "name": "Syn Elf Banish",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 0,
        "gold": 100,
        "side": "either",
        "effects": [{"type": "remove_monster", "when": {"race": "elf"}}],
        "encoding": FULL,
    },
    # A one-shot for the monster's side only: played without naming a monster, it still goes
    # to the monster.
    {
        "name": "Syn Monster Brew",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 3,
        "gold": 100,
        "side": "monster",
        "encoding": FULL,
    },
]


def one_shot_scenarios(ctx: CheckContext) -> None:
    """One-shots for the monster's side, and for an Elf played by an Elf or not."""
    ctx.run(
        "a monster-side one-shot played without naming the monster",
        {
            "players": [
                {"name": "Agent", "level": 3, "hand": ["Syn Monster Brew"]},
                {"name": "Other"},
            ],
            "combat": {"fighter": "Agent", "monsters": ["Syn Goon"]},
            "steps": [{"play": "Syn Monster Brew", "by": "Agent"}],
        },
        expect_values(fighter_strength=3, monster_strength=9, hand_sizes={"Agent": 0}),
    )
    # A one-shot usable only by an Elf: an Elf's bonus counts; anyone else is refused, the
    # card kept in the hand.
    for race, allowed in (("Elf", True), (None, False)):
        fighter = {"name": "Agent", "level": 3, "hand": ["Syn Elf Pie"]}
        if race:
            fighter["in_play"] = [race]
        document: dict[str, Any] = {
            "players": [fighter, {"name": "Other"}],
            "combat": {"fighter": "Agent", "monsters": ["Syn Goon"]},
            "steps": [{"play": "Syn Elf Pie", "by": "Agent"}],
        }
        if not allowed:
            document["expect"] = {"error": "usable only by"}
        charm = {**fighter, "hand": ["Syn Elf Charm"]}
        ctx.run(
            f"a one-shot's bonus for an Elf played by {race or 'a Human'}",
            {
                **document,
                "players": [charm, {"name": "Other"}],
                "steps": [{"play": "Syn Elf Charm", "by": "Agent"}],
                "expect": {},
            },
            expect_values(fighter_strength=7 if allowed else 3, hand_sizes={"Agent": 0}),
        )
        wings = {**fighter, "hand": ["Syn Elf Wings"]}
        ctx.run(
            f"an escape only for an Elf played by {race or 'a Human'}, die 1",
            {
                **document,
                "players": [wings, {"name": "Other"}],
                "steps": [{"play": "Syn Elf Wings", "by": "Agent"}, {"resolve": True}],
                "dice": [1],
                "expect": {},
            },
            expect_values(
                outcome="escaped" if allowed else "caught",
                levels={"Agent": 3 if allowed else 2},
                hand_sizes={"Agent": 0},
            ),
        )
        banish = {**fighter, "hand": ["Syn Elf Banish"]}
        ctx.run(
            f"a removal only for an Elf played by {race or 'a Human'}",
            {
                **document,
                "players": [banish, {"name": "Other"}],
                "steps": [{"play": "Syn Elf Banish", "by": "Agent", "on": "Syn Goon"}],
                "expect": {},
            },
            expect_values(
                outcome="won" if allowed else "none",
                levels={"Agent": 3},
                hand_sizes={"Agent": 0},
            ),
        )
        ctx.run(
            f"a one-shot only for an Elf played by {race or 'a Human'}",
            document,
            expect_values(
                fighter_strength=6 if allowed else 3, hand_sizes={"Agent": 0 if allowed else 1}
            ),
        )
