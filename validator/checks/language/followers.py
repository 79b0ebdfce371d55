"""Allies, Sidekicks and Ships: one Ally at a time, followers sacrificed, played, given away
and used, and Ship enhancers fitted."""

from __future__ import annotations

from typing import Any

from validator.checks.language.shared import FULL, LOSE, syn_follower, syn_item, syn_monster
from validator.checks.runner import CheckContext, expect_values

# Stand-ins for the Allies, Sidekicks and Ships whose printed facts no source gives (every one
# of the five sets is text_only or has unknown stats).
FOLLOWER_CARDS = [
    syn_follower("Syn Buddy", "ally", 1),
    syn_follower("Syn Pal", "ally", 2),
    syn_follower("Syn Squire", "sidekick", 1, gold=200),
    syn_follower("Syn Page", "sidekick", 1, gold=1),  # the least Gold value there is
    syn_follower("Syn Stray", "ally", 1, timing="own_turn"),
    # An Ally with an ability of its own: discard a card for +2 in its owner's fight.
    syn_follower(
        "Syn Hound",
        "ally",
        1,
        abilities=[
            {
                "name": "Fetch",
                "timing": "combat",
                "cost": {"discard": 1},
                "effects": [{"type": "strength", "amount": 2}],
            }
        ],
    ),
    syn_monster("Goon", [LOSE], level=6),
    syn_monster("Eel", [LOSE]),
    syn_monster("Crab", [LOSE], level=2),
    {
        "name": "Syn Sloop",
        "deck": "door",
        "kind": "ship",
        "slot": "ship",
        "big": True,
        "bonus": 2,
        "gold": 400,
        "encoding": FULL,
    },
    syn_item("Syn Cannons", bonus=3, gold=600, tags=["ship-enhancer"]),
]


def follower_scenarios(ctx: CheckContext) -> None:
    """Allies, Sidekicks and Ships played, sacrificed, given, used and fitted."""
    _one_ally_and_sacrifices(ctx)
    _played_given_and_used(ctx)
    _ship_enhancers(ctx)


def _one_ally_and_sacrifices(ctx: CheckContext) -> None:
    """A second Ally replacing the first, and followers given up for an escape."""
    # One Ally at a time (SpongeBob rules): a new one takes the old one's place.
    ctx.run(
        "a second Ally replaces the first",
        {
            "players": [
                {"name": "Patrick", "level": 3, "in_play": ["Syn Buddy"], "hand": ["Syn Pal"]},
                {"name": "Sandy"},
            ],
            "steps": [{"play": "Syn Pal", "by": "Patrick"}],
            "expect": {
                "in_play": {"Patrick": ["Syn Pal"]},
                "not_in_play": {"Patrick": ["Syn Buddy"]},
            },
        },
        expect_values(hand_sizes={"Patrick": 0}),
    )
    # An Ally sacrificed lets its fighter and the helper both get away, no roll made.
    ctx.run(
        "an Ally sacrificed saves the fighter and the helper",
        {
            "players": [
                {"name": "Patrick", "level": 3, "in_play": ["Syn Buddy"]},
                {"name": "Sandy", "level": 4},
            ],
            "combat": {"fighter": "Patrick", "monsters": ["Syn Eel"]},
            "steps": [
                {"help": "Sandy"},
                {"sacrifice": "Syn Buddy", "by": "Patrick"},
                {"resolve": True},
            ],
            "dice": [1, 1],
            "expect": {"not_in_play": {"Patrick": ["Syn Buddy"]}},
        },
        expect_values(outcome="escaped", levels={"Patrick": 3, "Sandy": 4}),
    )
    # Only a player in the fight may sacrifice a Sidekick: the owner watching keeps it.
    ctx.run(
        "a Sidekick is not sacrificed by a player out of the fight",
        {
            "players": [
                {"name": "Kate", "level": 1},
                {"name": "Lex", "level": 3, "in_play": ["Syn Squire"]},
            ],
            "combat": {"fighter": "Kate", "monsters": ["Syn Crab"]},
            "steps": [{"sacrifice": "Syn Squire", "by": "Lex"}],
            "expect": {"error": "not fighting", "in_play": {"Lex": ["Syn Squire"]}},
        },
        expect_values(levels={"Kate": 1, "Lex": 3}),
    )


def _played_given_and_used(ctx: CheckContext) -> None:
    """A follower played on its owner's turn only, given away, and its ability used."""
    # A follower played only on its owner's turn: refused on another's, kept in the hand.
    for active, allowed in (("Patrick", True), ("Sandy", False)):
        players = [{"name": "Patrick", "level": 3, "hand": ["Syn Stray"]}, {"name": "Sandy"}]
        if active == "Sandy":
            players.reverse()
        document: dict[str, Any] = {
            "players": players,
            "steps": [{"play": "Syn Stray", "by": "Patrick"}],
        }
        if not allowed:
            document["expect"] = {"error": "own turn"}
        ctx.run(
            f"an Ally played only on its owner's turn, on {active}'s turn",
            document,
            expect_values(
                hand_sizes={"Patrick": 0 if allowed else 1},
                in_play={"Patrick": ["Syn Stray"] if allowed else []},
            ),
        )
    # A Sidekick with a Gold value changes hands like an Item (Super Munchkin), even at 1 Gold.
    ctx.run(
        "a Sidekick worth 1 Gold given away",
        {
            "players": [
                {"name": "Lex", "level": 3, "in_play": ["Syn Page"]},
                {"name": "Kate", "level": 2},
            ],
            "steps": [{"give": ["Syn Page"], "by": "Lex", "to": "Kate"}],
        },
        expect_values(in_play={"Lex": [], "Kate": ["Syn Page"]}),
    )
    # An Ally's own ability: a card discarded for +2 to its owner in the fight.
    ctx.run(
        "an Ally's ability used in its owner's fight",
        {
            "players": [
                {
                    "name": "Patrick",
                    "level": 3,
                    "in_play": ["Syn Hound"],
                    "hand": ["Validator Door"],
                },
                {"name": "Sandy"},
            ],
            "combat": {"fighter": "Patrick", "monsters": ["Syn Goon"]},
            "steps": [
                {
                    "use": "Syn Hound",
                    "ability": "fetch",
                    "by": "Patrick",
                    "discard": ["Validator Door"],
                }
            ],
        },
        expect_values(fighter_strength=6, hand_sizes={"Patrick": 0}),
    )


def _ship_enhancers(ctx: CheckContext) -> None:
    """A Ship enhancer fitted on its owner's turn only, outside their fight."""
    # A Ship enhancer is fitted on its owner's turn, outside their fight (Booty rules); the
    # Ship's bonus and the enhancer's then count together.
    ship = {"name": "Anne", "level": 3, "in_play": ["Syn Sloop"], "hand": ["Syn Cannons"]}
    fit = {"play": "Syn Cannons", "by": "Anne", "with": "Syn Sloop"}
    ctx.run(
        "a Ship enhancer fitted on its owner's turn",
        {
            "players": [ship, {"name": "Bart"}],
            "steps": [fit, {"kick_door": "Anne"}],
            "deck": {"door": ["Syn Crab"]},
            "expect": {"fighter_strength": 8},
        },
        expect_values(hand_sizes={"Anne": 0}),
    )
    ctx.run(
        "no Ship enhancer fitted during its owner's fight",
        {
            "players": [ship, {"name": "Bart"}],
            "combat": {"fighter": "Anne", "monsters": ["Syn Crab"]},
            "steps": [fit],
            "expect": {"error": "combat", "fighter_strength": 5},
        },
        expect_values(hand_sizes={"Anne": 1}),
    )
    ctx.run(
        "no Ship enhancer fitted on another player's turn",
        {
            "players": [{"name": "Bart", "level": 3}, {**ship}],
            "steps": [fit],
            "expect": {"error": "own turn"},
        },
        expect_values(hand_sizes={"Anne": 1}),
    )
