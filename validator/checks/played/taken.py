"""What is taken or carried: an item taken from a rival in a fight, the items a follower
carries, and a level stolen from another player (`TAKEN_CHECKS`)."""

from __future__ import annotations

from typing import Any

from validator.checks.played.shared import PlayedCheck
from validator.checks.references import ITEM_FACTS, OGRE
from validator.checks.runner import Accept, CheckContext, expect_values, player
from validator.engine import CardBase, CarryItem, EffectBase, StealLevel, TakeItemInCombat


def _take_item_check(ctx: CheckContext, card: CardBase, effect: TakeItemInCombat) -> None:
    """The fighter takes a rival's item that turns the fight, refused any other way."""
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    _item_taken_runs(ctx, card, fight)
    _take_item_refusals(ctx, card, fight)


def _item_taken_runs(ctx: CheckContext, card: CardBase, fight: dict[str, Any]) -> None:
    """An item taken only when it turns the loss into a win."""
    rival = player("Rival", in_play=["Validator Gauntlet", "Validator Helm"])

    def take(item: str) -> list[dict[str, Any]]:
        return [{"play": card.name, "by": "Hero", "on": "Rival", "with": item}]

    runs: list[tuple[str, dict[str, Any], Accept | None]] = [
        (
            "an item that turns the loss into a win",
            {
                "players": [player("Hero", 1, hand=[card.name]), rival],
                "steps": [*take("Validator Gauntlet"), {"resolve": True}],
                "expect": {
                    "equipped": {"Hero": ["Validator Gauntlet"]},
                    "not_in_play": {"Rival": ["Validator Gauntlet"]},
                },
            },
            expect_values(fighter_strength=31, outcome="won", levels={"Hero": 2}),
        ),
        (
            "not an item that leaves the fight lost",
            {
                "players": [player("Hero", 1, hand=[card.name]), rival],
                "steps": take("Validator Helm"),
                "expect": {"error": True, "in_play": {"Rival": ["Validator Helm"]}},
            },
            expect_values(fighter_strength=1),
        ),
        (
            "not while winning",
            {
                "players": [
                    player("Hero", 1, hand=[card.name], in_play=["Validator Gauntlet"]),
                    player("Rival", in_play=["Validator Helm"]),
                ],
                "steps": take("Validator Helm"),
                "expect": {"error": True, "in_play": {"Rival": ["Validator Helm"]}},
            },
            expect_values(fighter_strength=31),
        ),
    ]
    with ctx.together([TakeItemInCombat]):
        for label, document, accept in runs:
            ctx.run(label, {**document, "combat": fight}, accept)


def _take_item_refusals(ctx: CheckContext, card: CardBase, fight: dict[str, Any]) -> None:
    """Refused to the helper, with no one named, and for an item in a rival's hand."""
    # Only the fighter plays it, and only on an item named on a rival's table.
    refusals: list[tuple[str, dict[str, Any]]] = [
        (
            "not by the helper",
            {
                "players": [
                    player("Hero", 1),
                    player("Rival", 1, hand=[card.name]),
                    player("Third", in_play=["Validator Gauntlet"]),
                ],
                "steps": [
                    {"help": "Rival"},
                    {"play": card.name, "by": "Rival", "on": "Third", "with": "Validator Gauntlet"},
                ],
                "expect": {
                    "error": True,
                    "hand_sizes": {"Rival": 1},
                    "in_play": {"Third": ["Validator Gauntlet"]},
                    "fighter_strength": 2,
                },
            },
        ),
        (
            "not with no one named",
            {
                "players": [
                    player("Hero", 1, hand=[card.name, "Validator Gauntlet"]),
                    player("Rival"),
                ],
                "steps": [{"play": card.name, "by": "Hero", "with": "Validator Gauntlet"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 2}, "fighter_strength": 1},
            },
        ),
        (
            "not an item from a rival's hand",
            {
                "players": [
                    player("Hero", 1, hand=[card.name]),
                    player("Rival", hand=["Validator Gauntlet"]),
                ],
                "steps": [
                    {"play": card.name, "by": "Hero", "on": "Rival", "with": "Validator Gauntlet"}
                ],
                "expect": {
                    "error": True,
                    "hand_sizes": {"Hero": 1, "Rival": 1},
                    "fighter_strength": 1,
                },
            },
        ),
    ]
    for label, document in refusals:
        ctx.run(label, {**document, "combat": fight})


def _carry_check(ctx: CheckContext, card: CardBase, effect: CarryItem) -> None:
    # It carries one more Big item (when the card says so), and only one.
    bigs = ["Validator Ram"] * (2 if effect.big else 1)
    ctx.run(
        "carries one item past the limits" if effect.big else "carries no Big item",
        {
            "players": [
                player("Hero", 3, in_play=["Validator Cart"], hand=[card.name, *bigs]),
                player("Rival"),
            ],
            "steps": [{"play": name, "by": "Hero"} for name in [card.name, *bigs]],
            "expect": {
                "error": "Big",
                "in_play": {"Hero": [card.name, "Validator Cart", *bigs[1:]]},
            },
        },
        covers=[CarryItem],
    )
    # The same holds for a Big item received in a trade: the one Big item already on the
    # table counts once, and the follower carries the second (when it may carry a Big one).
    received = {"in_play": {"Hero": [card.name, "Validator Cart", "Validator Ram"]}}
    ctx.run(
        "a second Big item taken in trade" if effect.big else "no second Big item in trade",
        {
            "players": [
                player("Hero", 3, in_play=[card.name, "Validator Cart"]),
                player("Rival", 3, in_play=["Validator Ram"]),
            ],
            "steps": [{"give": ["Validator Ram"], "by": "Rival", "to": "Hero"}],
            "expect": received
            if effect.big
            else {"error": "Big", "in_play": {"Rival": ["Validator Ram"]}},
        },
    )
    if effect.big:
        _carrier_gone_run(ctx, card)


def _carrier_gone_run(ctx: CheckContext, card: CardBase) -> None:
    """The follower that carried the second Big item leaves play (a plain card discards it,
    as Kill the Hireling does): the core rules' Big items rule gives the excess Big item to the
    lowest-Level player who can carry one (the Rival, Level 2; Third, Level 1, already has
    his), the Hero keeping the other, which one being the Hero's choice. The Ram and the Cart
    make 700 Gold, too little to sell them for a level instead."""
    dismissal = "Validator Dismissal"
    bigs = ["Validator Cart", "Validator Ram"]
    # (kept by the Hero, given to the Rival): either way round is the Hero's choice
    shares = [(bigs[0], bigs[1]), (bigs[1], bigs[0])]

    def accept(values: dict[str, Any]) -> str | None:
        def items(name: str) -> list[str]:
            return sorted(i for i in values["in_play"][name] if i in ITEM_FACTS)

        got = (
            items("Hero"),
            items("Rival"),
            items("Third"),
            card.name in values["in_play"]["Hero"],
        )
        for kept, given in shares:
            if got == ([kept], [given], ["Validator Ram"], False):
                return None
        return f"expected the Hero to keep one Big item and the Rival to get the other; got {got}"

    ctx.run(
        "the extra Big item it carried goes to the lowest Level once it is gone",
        {
            "players": [
                player("Hero", 3, in_play=[card.name, *bigs], hand=[dismissal]),
                player("Rival", 2),
                player("Third", 1, in_play=["Validator Ram"]),
            ],
            "steps": [{"play": dismissal, "by": "Hero"}],
            "cards": [
                {
                    "name": dismissal,
                    "deck": "treasure",
                    "kind": "other_treasure",
                    "effects": [{"type": "discard_card", "kind": card.kind_name}],
                    "encoding": {"status": "full"},
                }
            ],
        },
        accept,
    )


def _steal_level_check(ctx: CheckContext, card: CardBase, effect: StealLevel) -> None:
    """A level taken from another player: from one at Level 2 (never below 1); with no one
    named, from a player who has a level to spare (a Level 2 one too), and from no one when
    every other player is at Level 1 (no one goes below Level 1, so there is no level to move);
    at Level 8 (9 is not the winning level); never from a Level 1 player nor from oneself. The
    card is gone when it acted."""
    if getattr(card, "timing", "any") in ("combat", "running_away", "on_draw"):
        return  # played outside a fight here; such a card is tried where it acts
    runs: list[tuple[str, int, tuple[int, int], str | None, dict[str, Any]]] = [
        # (label, the Hero's Level, the Rival's and Third's, who is named, what is expected)
        ("from a Level 2 player", 3, (2, 4), "Rival", {"levels": {"Hero": 4, "Rival": 1}}),
        (
            "with no one named",
            3,
            (1, 4),
            None,
            {"levels": {"Hero": 4, "Rival": 1, "Third": 3}},
        ),
        (
            "with no one named, from the one Level 2 player",
            3,
            (1, 2),
            None,
            {"levels": {"Hero": 4, "Rival": 1, "Third": 1}},
        ),
        (
            "with no one named and everyone else at Level 1, no level moves",
            3,
            (1, 1),
            None,
            {"levels": {"Hero": 3, "Rival": 1, "Third": 1}},
        ),
        ("at Level 8", 8, (2, 4), "Rival", {"levels": {"Hero": 9, "Rival": 1}}),
        (
            "refused from a Level 1 player",
            3,
            (1, 4),
            "Rival",
            {"error": True, "levels": {"Rival": 1}},
        ),
        ("refused from its own player", 3, (2, 4), "Hero", {"error": True, "levels": {"Hero": 3}}),
    ]
    with ctx.together([StealLevel]):
        for label, level, (rival, third), named, expected in runs:
            refused = "error" in expected
            # Whether a card that finds no level to take is still spent is not said: with
            # everyone at Level 1 only the levels are judged.
            spent = {} if third == 1 else {"hand_sizes": {"Hero": 1 if refused else 0}}
            ctx.run(
                label,
                {
                    "players": [
                        player("Hero", level, hand=[card.name]),
                        player("Rival", rival),
                        player("Third", third),
                    ],
                    "steps": [
                        {"play": card.name, "by": "Hero", **({"on": named} if named else {})}
                    ],
                    "expect": {**expected, **spent},
                },
            )


TAKEN_CHECKS: dict[type[EffectBase], PlayedCheck] = {
    TakeItemInCombat: _take_item_check,
    CarryItem: _carry_check,
    StealLevel: _steal_level_check,
}
