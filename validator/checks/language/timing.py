"""Cards played at set moments: a level for an Ally in play, after a fight won or any
fight, and a reward for getting away."""

from __future__ import annotations

from typing import Any

from validator.checks.language.shared import FULL, GAIN, LOSE, syn_follower, syn_item, syn_monster
from validator.checks.runner import CheckContext, expect_values

TIMING_CARDS: list[dict[str, Any]] = [
    # A level for getting rid of an Ally in play, anyone's (as Kill the Hireling does).
    {
        "name": "Syn Pink Slip",
        "deck": "treasure",
        "kind": "go_up_a_level",
        "requires": {"in_play_anywhere": "ally"},
        "effects": [GAIN, {"type": "discard_card", "kind": "ally", "owner": "any"}],
        "encoding": FULL,
    },
    # A level only once a fight won this turn is over.
    {
        "name": "Syn Victory Lap",
        "deck": "treasure",
        "kind": "go_up_a_level",
        "timing": "after_combat",
        "effects": [GAIN],
        "encoding": FULL,
    },
    # A level once any fight of this turn is over, won, fled or lost.
    {
        "name": "Syn Aftermath",
        "deck": "treasure",
        "kind": "go_up_a_level",
        "timing": "after_any_combat",
        "effects": [GAIN],
        "encoding": FULL,
    },
    syn_follower("Syn Buddy", "ally", 1),
    syn_monster("Level 2", [LOSE], level=2),
    syn_monster("Level 8", [LOSE], level=8),
    # A reward for getting away (as the Tuba of Charm's): one Treasure drawn.
    syn_item(
        "Syn Horn",
        effects=[{"type": "after_escape", "effects": [{"type": "draw_treasures", "count": 1}]}],
    ),
]


def timing_scenarios(ctx: CheckContext) -> None:
    """Level cards at their moments, and the reward for getting away from every monster."""
    _ally_level_card(ctx)
    _after_a_won_fight(ctx)
    _after_any_fight(ctx)
    _reward_for_escaping(ctx)


def _ally_level_card(ctx: CheckContext) -> None:
    """A level for the only Ally in play, whoever holds it; none with no Ally."""
    # Whoever has the only Ally in play loses it, whatever their seat.
    for holder in ("Left", "Right"):
        players = [
            {"name": "Aric", "level": 3, "hand": ["Syn Pink Slip"]},
            {"name": "Left", "level": 2},
            {"name": "Right", "level": 2},
        ]
        players[1 if holder == "Left" else 2]["in_play"] = ["Syn Buddy", "Validator Helm"]
        ctx.run(
            f"a level for the only Ally in play, {holder}'s",
            {"players": players, "steps": [{"play": "Syn Pink Slip", "by": "Aric"}]},
            expect_values(
                levels={"Aric": 4},
                hand_sizes={"Aric": 0},
                in_play={holder: ["Validator Helm"]},
            ),
        )
    # With no Ally in play anywhere (other cards are), the card cannot be played.
    ctx.run(
        "a level for an Ally with none in play",
        {
            "players": [
                {"name": "Aric", "level": 3, "hand": ["Syn Pink Slip"]},
                {"name": "Left", "level": 2, "in_play": ["Validator Helm"]},
            ],
            "steps": [{"play": "Syn Pink Slip", "by": "Aric"}],
            "expect": {"error": True},
        },
        expect_values(levels={"Aric": 3}, hand_sizes={"Aric": 1}),
    )


def _after_a_won_fight(ctx: CheckContext) -> None:
    """A level only after a fight won this turn, refused before or during one."""
    # After a fight won this turn: a level; before any fight, or during one: refused.
    lap = {"name": "Aric", "level": 3, "hand": ["Syn Victory Lap"]}
    play = {"play": "Syn Victory Lap", "by": "Aric"}
    for label, steps, allowed in (
        ("after a fight won", [{"kick_door": "Aric"}, {"resolve": True}, play], True),
        ("before any fight", [play], False),
        ("during the fight", [{"kick_door": "Aric"}, play], False),
    ):
        document: dict[str, Any] = {
            "players": [lap, {"name": "Left"}],
            "steps": steps,
            "deck": {"door": ["Syn Level 2"]},
        }
        if not allowed:
            document["expect"] = {"error": True}
        ctx.run(
            f"a level only after a won fight, played {label}",
            document,
            # After the win: a level for the kill, one for the card, and the kill's Treasure
            # in hand; refused: the card kept, no level.
            expect_values(levels={"Aric": 5}, hand_sizes={"Aric": 1})
            if allowed
            else expect_values(levels={"Aric": 3}, hand_sizes={"Aric": 1}),
        )


def _after_any_fight(ctx: CheckContext) -> None:
    """A level after any fight of the turn, fled or lost, refused before or during one."""
    # After any fight of this turn: fled (a 6) or lost (a 1, a level lost to the Level 8);
    # before any fight or during one: refused.
    after = {"name": "Aric", "level": 3, "hand": ["Syn Aftermath"]}
    play = {"play": "Syn Aftermath", "by": "Aric"}
    for label, steps, dice, level in (
        ("after a fled fight", [{"kick_door": "Aric"}, {"resolve": True}, play], [6], 4),
        ("after a lost fight", [{"kick_door": "Aric"}, {"resolve": True}, play], [1], 3),
        ("before any fight", [play], [], None),
        ("during the fight", [{"kick_door": "Aric"}, play], [], None),
    ):
        document: dict[str, Any] = {
            "players": [after, {"name": "Left"}],
            "steps": steps,
            "deck": {"door": ["Syn Level 8"]},
            "dice": dice,
        }
        if level is None:
            document["expect"] = {"error": True}
        ctx.run(
            f"a level after any fight of the turn, played {label}",
            document,
            expect_values(
                levels={"Aric": level if level is not None else 3},
                hand_sizes={"Aric": 0 if level is not None else 1},
            ),
        )


def _reward_for_escaping(ctx: CheckContext) -> None:
    """The reward for getting away, only from every monster."""
    # The reward for getting away comes only for getting away from every monster.
    for dice, escaped_all in (([6, 6], True), ([6, 1], False)):
        ctx.run(
            f"a reward for getting away, dice {dice}",
            {
                "players": [
                    {"name": "Hero", "level": 1, "in_play": ["Syn Horn"]},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": ["Syn Level 8", "Syn Level 2"]},
                "steps": [{"resolve": True}],
                "dice": dice,
            },
            expect_values(hand_sizes={"Hero": 1 if escaped_all else 0}),
        )
