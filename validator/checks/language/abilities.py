"""Abilities and bonuses: a class's abilities at any time, Undead joining a fight, and a
Treasure for a win on Level alone."""

from __future__ import annotations

from typing import Any

from validator.checks.language.shared import FULL, LOSE, syn_monster, syn_power
from validator.checks.runner import CheckContext, expect_values

ABILITY_CARDS = [
    # A class whose ability, used at any time for nothing, has its player take the top Door
    # discard instead of kicking the deck (as the Cleric's Resurrection does, before a draw).
    {
        "name": "Syn Digger",
        "deck": "door",
        "kind": "class",
        "abilities": [{"name": "Dig", "timing": "any", "effects": [{"type": "draw_from_discard"}]}],
        "notes": "A test class: takes the top Door discard instead of kicking the deck.",
        "encoding": FULL,
    },
    {**syn_power("Syn Gnomish"), "kind": "race"},
    syn_monster("Level 9", [LOSE], level=9),
    # An ability aimed at a fighting player, usable at any time: with no fight, no one is.
    {
        "name": "Syn Heckler",
        "deck": "door",
        "kind": "class",
        "abilities": [
            {
                "name": "Jeer",
                "timing": "any",
                "target": "fighting_player",
                "effects": [{"type": "strength", "amount": -2}],
            }
        ],
        "notes": "A test class: -2 to a fighting player, at any time.",
        "encoding": FULL,
    },
    # Undead monsters, and a card carrying the undead tag that is no monster.
    {**syn_monster("Ghoul", [LOSE], level=4), "tags": ["undead"]},
    {**syn_monster("Wight", [LOSE], level=3), "tags": ["undead"]},
    {
        "name": "Syn Grave Dust",
        "deck": "door",
        "kind": "other_door",
        "tags": ["undead"],
        "encoding": FULL,
    },
    # One more Treasure for a win on Level alone: no bonus on the fighting side.
    {
        **syn_monster("Purist", [LOSE], level=6),
        "effects": [{"type": "extra_treasures", "amount": 1, "when": {"bonuses_used": False}}],
    },
]


def ability_scenarios(ctx: CheckContext) -> None:
    """Abilities at any time, Undead joining a fight, and a win on Level alone."""
    ctx.run(
        "an ability taking the top Door discard instead of the deck",
        {
            "players": [
                {"name": "Hero", "level": 3, "in_play": ["Syn Digger"]},
                {"name": "Rival", "level": 2, "in_play": ["Syn Gnomish"]},
            ],
            "steps": [
                {"discard_card": "Syn Gnomish", "by": "Rival"},
                {"use": "Syn Digger", "ability": "dig", "by": "Hero"},
                {"kick_door": "Hero"},
            ],
            "deck": {"door": ["Syn Level 9"]},
        },
        expect_values(outcome="none", hand_sizes={"Hero": 1}, levels={"Hero": 3}),
    )
    ctx.run(
        "an ability aimed at a fighting player, with no fight",
        {
            "players": [
                {"name": "Hero", "level": 3, "in_play": ["Syn Heckler"]},
                {"name": "Rival"},
            ],
            "steps": [{"use": "Syn Heckler", "ability": "jeer", "by": "Hero", "on": "Rival"}],
            "expect": {"error": True},
        },
        expect_values(levels={"Hero": 3, "Rival": 1}),
    )
    # An Undead monster from the hand joins a fight with an Undead (core rules); a card that
    # only carries the tag is no monster and does not.
    for card, joins in (("Syn Wight", True), ("Syn Grave Dust", False)):
        document: dict[str, Any] = {
            "players": [{"name": "Hero", "level": 3}, {"name": "Rival", "hand": [card]}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Ghoul"]},
            "steps": [{"join": card, "by": "Rival"}],
        }
        if not joins:
            document["expect"] = {"error": True}
        ctx.run(
            f"{card} joining an Undead's fight",
            document,
            expect_values(
                monster_strength=7 if joins else 4, hand_sizes={"Rival": 0 if joins else 1}
            ),
        )
    # A win on Level alone: the helper's Level is no bonus; an item on either member is.
    for gear, holder, treasures in (
        ([], None, 2),
        (["Validator Sword"], "Hero", 1),
        (["Validator Sword"], "Friend", 1),
    ):
        players = [
            {"name": "Hero", "level": 5, "in_play": gear if holder == "Hero" else []},
            {"name": "Friend", "level": 3, "in_play": gear if holder == "Friend" else []},
        ]
        ctx.run(
            f"a win on Level alone, with an item on {holder or 'nobody'}",
            {
                "players": players,
                "combat": {"fighter": "Hero", "monsters": ["Syn Purist"]},
                "steps": [{"help": "Friend"}, {"resolve": True}],
            },
            expect_values(outcome="won", treasures_drawn=treasures),
        )
