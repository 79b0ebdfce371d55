"""Conditions at their bounds: Level ranges, the lowest and highest Level, monster Levels,
followers in play, bonuses per monster, Treasure floors, and the dead."""

from __future__ import annotations

from typing import Any

from validator.checks.language.shared import FULL, LOSE, syn_follower, syn_item, syn_monster
from validator.checks.runner import CheckContext, expect_values


def _bonus_monster(name: str, effect: dict[str, Any], level: int = 6) -> dict[str, Any]:
    return {**syn_monster(name, [LOSE], level=level), "effects": [effect]}


CONDITION_CARDS: list[dict[str, Any]] = [
    _bonus_monster(
        "Low Bully", {"type": "strength", "amount": 3, "when": {"level": {"min": 2, "max": 4}}}
    ),
    _bonus_monster(
        "Bottom Feeder", {"type": "strength", "amount": 3, "when": {"level_rank": "lowest"}}
    ),
    _bonus_monster(
        "Top Hunter", {"type": "strength", "amount": 3, "when": {"level_rank": "highest"}}
    ),
    _bonus_monster("Brawny", {"type": "strength", "amount": 2}),
    syn_item(
        "Syn Mid Stick",
        effects=[{"type": "runaway", "amount": 2, "when": {"monster_level": {"min": 3, "max": 8}}}],
    ),
    *(syn_monster(f"Level {n}", [LOSE], level=n) for n in (2, 3, 8, 9)),
    syn_item("Syn Pack Fighter", effects=[{"type": "strength", "amount": 2, "per": "monster"}]),
    # +2 for a player who has an Ally in play; an item is no Ally.
    syn_item(
        "Syn Leash", effects=[{"type": "strength", "amount": 2, "when": {"has_in_play": "ally"}}]
    ),
    syn_follower("Syn Buddy", "ally", 1),
    # A Level 0 monster (its +5 makes it win), and a Run Away bonus against Level 1 and up.
    _bonus_monster("Level 0", {"type": "strength", "amount": 5}, level=0),
    syn_item(
        "Syn Floor Stick",
        effects=[{"type": "runaway", "amount": 2, "when": {"monster_level": {"min": 1}}}],
    ),
    # An enhancer taking a Treasure off, down to a floor of none.
    {
        "name": "Syn Thin Floor",
        "deck": "door",
        "kind": "monster_enhancer",
        "strength": -5,
        "treasures": -1,
        "strength_floor": 1,
        "treasures_floor": 0,
        "encoding": FULL,
    },
    {
        "name": "Syn Doom",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "death"}],
        "encoding": FULL,
    },
]


def condition_scenarios(ctx: CheckContext) -> None:
    """Conditions just inside and outside their bounds, and the dead kept from helping."""
    _monster_bonuses(ctx)
    _monster_levels_and_floors(ctx)
    _table_conditions(ctx)


def _monster_bonuses(ctx: CheckContext) -> None:
    """A monster's bonus against a Level range, the lowest or highest Level, and always."""
    # A bonus against a fighter of Level 2 to 4: both bounds count as inside.
    for level, bonus in ((1, 0), (2, 3), (4, 3), (5, 0)):
        ctx.run(
            f"+3 against Level 2 to 4, fighter at Level {level}",
            {
                "players": [{"name": "Hero", "level": level}, {"name": "Rival", "level": 3}],
                "combat": {"fighter": "Hero", "monsters": ["Syn Low Bully"]},
            },
            expect_values(monster_strength=6 + bonus, fighter_strength=level),
        )
    # Against the lowest (or highest) Level at the table: a tie counts as lowest (highest).
    for monster, rank in (("Syn Bottom Feeder", "lowest"), ("Syn Top Hunter", "highest")):
        for level in (2, 3, 4):
            holds = level <= 3 if rank == "lowest" else level >= 3
            ctx.run(
                f"+3 against the {rank} Level, fighter at {level}, the other at 3",
                {
                    "players": [{"name": "Hero", "level": level}, {"name": "Rival", "level": 3}],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                },
                expect_values(monster_strength=6 + 3 * holds),
            )
    # A monster's own unconditional bonus adds to its Level.
    ctx.run(
        "a monster's unconditional +2",
        {
            "players": [{"name": "Hero", "level": 3}, {"name": "Rival"}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Brawny"]},
        },
        expect_values(monster_strength=8),
    )


def _monster_levels_and_floors(ctx: CheckContext) -> None:
    """Run Away bonuses by monster Level, and an enhancer's Treasure floor of none."""
    # +2 to Run Away from a monster of Level 3 to 8 (both bounds inside): a 3 then escapes.
    for monster_level in (2, 3, 8, 9):
        escapes = 3 <= monster_level <= 8
        ctx.run(
            f"+2 to Run Away from Level 3 to 8, a Level {monster_level} monster, die 3",
            {
                "players": [
                    {"name": "Hero", "level": 1, "in_play": ["Syn Mid Stick"]},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": [f"Syn Level {monster_level}"]},
                "steps": [{"resolve": True}],
                "dice": [3],
            },
            expect_values(outcome="escaped" if escapes else "caught"),
        )
    # Against a Level 0 monster "Level 1 and up" does not hold: a 3 is caught.
    ctx.run(
        "+2 to Run Away from Level 1 and up, a Level 0 monster, die 3",
        {
            "players": [
                {"name": "Hero", "level": 1, "in_play": ["Syn Floor Stick"]},
                {"name": "Rival"},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Level 0"]},
            "steps": [{"resolve": True}],
            "dice": [3],
        },
        expect_values(outcome="caught"),
    )
    # An enhancer's Treasure floor of 0: the monster's one Treasure goes, none is drawn.
    ctx.run(
        "an enhancer's Treasure floor of none",
        {
            "players": [
                {"name": "Hero", "level": 5, "hand": ["Syn Thin Floor"]},
                {"name": "Rival"},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Level 2"]},
            "steps": [
                {"play": "Syn Thin Floor", "by": "Hero", "on": "Syn Level 2"},
                {"resolve": True},
            ],
        },
        expect_values(outcome="won", monster_strength=1, treasures_drawn=0, levels={"Hero": 6}),
    )


def _table_conditions(ctx: CheckContext) -> None:
    """Bonuses for an Ally in play and per monster, and the dead kept from helping."""
    # +2 with an Ally in play: not for an item, only for the Ally (+1 of its own).
    for table, strength in ((["Syn Leash", "Validator Helm"], 4), (["Syn Leash", "Syn Buddy"], 6)):
        ctx.run(
            f"+2 with an Ally in play, holding {', '.join(table)}",
            {
                "players": [{"name": "Hero", "level": 3, "in_play": table}, {"name": "Rival"}],
                "combat": {"fighter": "Hero", "monsters": ["Syn Level 8"]},
            },
            expect_values(fighter_strength=strength),
        )
    # +2 per monster in the fight: +2 against one, +4 against two.
    for monsters in (["Syn Level 8"], ["Syn Level 8", "Syn Level 9"]):
        ctx.run(
            f"+2 per monster against {len(monsters)}",
            {
                "players": [
                    {"name": "Hero", "level": 1, "in_play": ["Syn Pack Fighter"]},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": monsters},
            },
            expect_values(fighter_strength=1 + 2 * len(monsters)),
        )
    # The dead do not help: killed this turn, a player is back only when the next turn starts
    # (core rules, Death).
    ctx.run(
        "a player killed this turn cannot help",
        {
            "players": [
                {"name": "Hero", "level": 3, "hand": ["Syn Doom"]},
                {"name": "Rival", "level": 5},
            ],
            "steps": [
                {"play": "Syn Doom", "by": "Hero", "on": "Rival"},
                {"kick_door": "Hero"},
                {"help": "Rival"},
            ],
            "deck": {"door": ["Syn Level 9"]},
            "expect": {"error": True, "dead": ["Rival"]},
        },
        expect_values(fighter_strength=3),
    )
