"""Outcomes at their edges: Big items stolen, levels and discards taken, hands thrown away,
Gold paid from cheap items, and die tables read past the die's faces."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from validator.checks.language.shared import (
    GAIN,
    LOSE,
    syn_item,
    syn_monster,
    syn_power,
    with_otherwise,
)
from validator.checks.runner import CheckContext, expect_values

OUTCOME_CARDS = [
    syn_monster("Big Thief", [with_otherwise({"type": "steal_item", "size": "big"})]),
    syn_monster("Level Thief", [with_otherwise({"type": "steal_level"})]),
    syn_monster("Grave Robber", [with_otherwise({"type": "take_from_discard"})]),
    {**syn_power("Syn Gnomish"), "kind": "race"},
    syn_monster("Discard Two Or Else", [with_otherwise({"type": "discard_from_hand", "count": 2})]),
    syn_monster(
        "Discard Three Or Pay",
        [{"type": "discard_from_hand", "count": 3, "if_fewer": [LOSE]}],
    ),
    syn_monster(
        "Income Tax",
        [{"type": "lose_items", "count": "all"}, {"type": "others_pay_value"}],
    ),
    syn_monster("Toll", [{"type": "lose_gold_value", "amount": 5}]),
    # An `otherwise` holding an effect that is no outcome (a combat rule): it does nothing to
    # the victim, and the outcome beside it still applies.
    syn_monster(
        "Odd Otherwise",
        [with_otherwise({"type": "discard_hand"}) | {"otherwise": [{"type": "no_help"}, GAIN]}],
    ),
    syn_item("Syn Penny", gold=1),  # the least Gold an item can be worth
    syn_monster("Tithe", [{"type": "draw_treasures", "count": 1, "recipient": "fighter"}]),
    syn_monster(
        "Die Table",
        [
            {
                "type": "roll",
                "outcomes": [
                    {"min": 1, "max": 1, "effects": [{"type": "lose_levels", "amount": "roll"}]},
                    {"min": 2, "max": 5, "effects": [GAIN]},
                    {"min": 6, "max": 6, "effects": [{"type": "lose_levels", "amount": "roll"}]},
                ],
            }
        ],
    ),
    # Die modifiers come from character cards, curses and followers (Chicken on Your Head).
    {**syn_power("Syn Leaden Die", effects=[{"type": "die_rolls", "amount": -1}]), "kind": "race"},
    {**syn_power("Syn Loaded Die", effects=[{"type": "die_rolls", "amount": 1}]), "kind": "class"},
]


def outcome_scenarios(ctx: CheckContext) -> None:
    """Outcomes at their edges, each with the table the rules leave."""
    _taken_from_others(ctx)
    _hands_thrown_away(ctx)
    _gold_paid(ctx)
    _otherwise_and_recipient(ctx)
    _die_past_its_faces(ctx)


def _taken_from_others(ctx: CheckContext) -> None:
    """A Big item and a level stolen, and a card taken from the discards."""
    cart, ram = "Validator Cart", "Validator Ram"  # two Big items

    # Stealing a Big item beside one's own: one Big item is all a player may carry (core
    # rules), so one of the two goes to the lowest-Level player able to carry it, the Rival.
    def one_big_each(values: dict[str, Any]) -> str | None:
        hero = [i for i in values["in_play"]["Hero"] if i in (cart, ram)]
        rival = [i for i in values["in_play"]["Rival"] if i in (cart, ram)]
        if len(hero) == 1 and len(rival) == 1:
            return None
        return f"expected one Big item each, got Hero {hero}, Rival {rival}"

    ctx.run(
        "a Big item stolen beside one's own",
        {
            "players": [
                {"name": "Hero", "level": 5, "in_play": [cart]},
                {"name": "Rival", "level": 3, "in_play": [ram]},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Big Thief"]},
            "steps": [{"resolve": True}],
            "dice": [1],
            "expect": {"outcome": "caught", "levels": {"Hero": 5, "Rival": 3}},
        },
        one_big_each,
    )
    # Outcomes that act on another player: the otherwise (a level) stays out when they do.
    ctx.run(
        "a level stolen from a rival above Level 1",
        {
            "players": [{"name": "Hero", "level": 5}, {"name": "Rival", "level": 3}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Level Thief"]},
            "steps": [{"resolve": True}],
            "dice": [1],
        },
        expect_values(outcome="caught", levels={"Hero": 6, "Rival": 2}),
    )
    ctx.run(
        "a card taken from the discards",
        {
            "players": [
                {"name": "Hero", "level": 5},
                {"name": "Rival", "level": 3, "in_play": ["Syn Gnomish"]},
            ],
            "steps": [
                {"discard_card": "Syn Gnomish", "by": "Rival"},
                {"kick_door": "Hero"},
                {"resolve": True},
            ],
            "deck": {"door": ["Syn Grave Robber"]},
            "dice": [1],
        },
        expect_values(outcome="caught", levels={"Hero": 5}, hand_sizes={"Hero": 1}),
    )


def _hands_thrown_away(ctx: CheckContext) -> None:
    """Cards thrown from a hand holding enough, fewer, or none."""
    # discard_from_hand acts when it throws away a card, even fewer than it asks for; with an
    # empty hand its otherwise comes instead. Holding fewer than asked costs a level too.
    for hand, level in ((3, 5), (1, 5), (0, 6)):
        ctx.run(
            f"discard two cards or else, holding {hand}",
            {
                "players": [
                    {"name": "Hero", "level": 5, "hand": ["Validator Door"] * hand},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": ["Syn Discard Two Or Else"]},
                "steps": [{"resolve": True}],
                "dice": [1],
            },
            expect_values(
                outcome="caught", levels={"Hero": level}, hand_sizes={"Hero": max(0, hand - 2)}
            ),
        )
    for hand, level in ((3, 5), (2, 4)):
        ctx.run(
            f"discard three cards, holding {hand}",
            {
                "players": [
                    {"name": "Hero", "level": 5, "hand": ["Validator Door"] * hand},
                    {"name": "Rival"},
                ],
                "combat": {"fighter": "Hero", "monsters": ["Syn Discard Three Or Pay"]},
                "steps": [{"resolve": True}],
                "dice": [1],
            },
            expect_values(outcome="caught", levels={"Hero": level}, hand_sizes={"Hero": 0}),
        )


def _gold_paid(ctx: CheckContext) -> None:
    """Gold paid by the others for a victim's items, and from cheap items."""
    # The others pay what the victim's lost items were worth, however little: 1 Gold costs
    # the Rival its cheapest item that covers it.
    ctx.run(
        "the others pay for an item worth 1 Gold",
        {
            "players": [
                {"name": "Hero", "level": 5, "in_play": ["Syn Penny"]},
                {"name": "Rival", "level": 3, "in_play": ["Validator Helm", "Validator Ram"]},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Income Tax"]},
            "steps": [{"resolve": True}],
            "dice": [1],
        },
        expect_values(
            outcome="caught", levels={"Rival": 3}, in_play={"Hero": [], "Rival": ["Validator Ram"]}
        ),
    )

    # Items worth at least 5 Gold go, the least that pays: five of thirteen 1-Gold Pennies.
    def pennies_left(count: int) -> Callable[[dict[str, Any]], str | None]:
        def accept(values: dict[str, Any]) -> str | None:
            left = values["in_play"]["Hero"].count("Syn Penny")
            return None if left == count else f"expected {count} Pennies left, got {left}"

        return accept

    ctx.run(
        "5 Gold paid from thirteen 1-Gold items",
        {
            "players": [
                {"name": "Hero", "level": 5, "in_play": ["Syn Penny"] * 13},
                {"name": "Rival"},
            ],
            "combat": {"fighter": "Hero", "monsters": ["Syn Toll"]},
            "steps": [{"resolve": True}],
            "dice": [1],
            "expect": {"outcome": "caught"},
        },
        pennies_left(8),
    )


def _otherwise_and_recipient(ctx: CheckContext) -> None:
    """An otherwise holding a combat rule, and Treasure drawn for the fighter."""
    ctx.run(
        "an otherwise holding a combat rule beside a level",
        {
            "players": [{"name": "Hero", "level": 5}, {"name": "Rival"}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Odd Otherwise"]},
            "steps": [{"resolve": True}],
            "dice": [1],
        },
        expect_values(outcome="caught", levels={"Hero": 6}),
    )
    # Treasure the card gives "the fighter": a caught helper's draw goes to the fighter too.
    ctx.run(
        "a helper's Treasure drawn for the fighter",
        {
            "players": [{"name": "Hero", "level": 5}, {"name": "Rival", "level": 3}],
            "combat": {"fighter": "Hero", "monsters": ["Syn Tithe"]},
            "steps": [{"help": "Rival"}, {"resolve": True}],
            "dice": [1, 1],
        },
        expect_values(outcome="caught", hand_sizes={"Hero": 2, "Rival": 0}),
    )


def _die_past_its_faces(ctx: CheckContext) -> None:
    """A die table read past the die's faces, its nearest face counted."""
    # A die modifier takes a roll past the die's faces: it reads as the nearest face of the
    # table (a 0 as the 1, a 7 as the 6), and an amount "roll" is that face.
    for die_item, level, rolled, after in (
        ("Syn Leaden Die", 5, 1, 4),  # 1 - 1 = 0: the 1 face, one level lost
        ("Syn Loaded Die", 9, 6, 3),  # 6 + 1 = 7: the 6 face, six levels lost
        ("Syn Leaden Die", 5, 2, 4),  # 2 - 1 = 1: the 1 face
        ("Syn Loaded Die", 5, 1, 6),  # 1 + 1 = 2: a level gained
    ):
        ctx.run(
            f"the die table with {die_item}, die {rolled}",
            {
                "players": [{"name": "Hero", "level": level, "in_play": [die_item]}],
                "combat": {"fighter": "Hero", "monsters": ["Syn Die Table"]},
                "steps": [{"resolve": True}],
                "dice": [1, rolled],
            },
            expect_values(outcome="caught", levels={"Hero": after}),
        )
