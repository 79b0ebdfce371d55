"""Cards that let a player break a rule: a second card of a character axis (Super Munchkin,
Half-Breed) and Cheat!, with a second Ship where the set has Ships (`CHEAT_CHECKS`)."""

from __future__ import annotations

from typing import Any

from validator.checks.oracle import items_bonus
from validator.checks.played.shared import PlayedCheck
from validator.checks.references import OGRE, RAGE, SHIP_SETS, axis_card, title_case
from validator.checks.runner import CheckContext, expect_values, player
from validator.engine import CardBase, Cheat, EffectBase, ExtraCharacterCard


def _extra_character_check(ctx: CheckContext, card: CardBase, effect: ExtraCharacterCard) -> None:
    """With one card of the axis, the Hater (+5 against the first) loses its bonus; a second
    card joins the first instead of replacing it, and the drawbacks are back."""
    one, two = (title_case(axis_card(effect.axis, rank)[1]) for rank in range(2))
    fight = {"fighter": "Hero", "monsters": [f"Validator {title_case(effect.axis)} Hater"]}
    runs = [
        ("with one card, none of its drawbacks", [card.name], [card.name], 1),
        ("a second card joins the first, drawbacks and all", [card.name, two], [one, two], 6),
    ]
    with ctx.together([ExtraCharacterCard]):
        for label, played, kept, strength in runs:
            ctx.run(
                label,
                {
                    "players": [player("Hero", 3, in_play=[one], hand=played), player("Rival")],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Hero"} for name in played],
                    "expect": {"in_play": {"Hero": [card.name, *kept]}},
                },
                expect_values(monster_strength=strength),
            )
    # Played when its player could play a card of its axis (on their own turn: core rules,
    # Super Munchkin and Half-Breed); it needs a card to attach to when it says so.
    refusals = [
        (
            "refused on another player's turn",
            [player("Hero", 3), player("Rival", 3, in_play=[one], hand=[card.name])],
            "Rival",
        )
    ]
    if effect.needs_host:
        refusals.append(
            (
                f"refused with no {effect.axis} card to attach to",
                [player("Hero", 3, hand=[card.name]), player("Rival")],
                "Hero",
            )
        )
    # Such cards do not stack (one Super Munchkin or Half-Breed at a time): with one already
    # joining two cards of the axis, a second copy is refused and stays in the hand.
    ctx.run(
        "refused beside another copy of itself",
        {
            "players": [
                player("Hero", 3, in_play=[one, card.name, two], hand=[card.name]),
                player("Rival"),
            ],
            "steps": [{"play": card.name, "by": "Hero"}],
            "expect": {"error": "already has", "hand_sizes": {"Hero": 1}},
        },
    )
    for label, players, by in refusals:
        ctx.run(
            label,
            {
                "players": players,
                "steps": [{"play": card.name, "by": by}],
                "expect": {
                    "error": True,
                    "hand_sizes": {by: 1},
                    "not_in_play": {by: [card.name]},
                },
            },
        )


def _cheat_check(ctx: CheckContext, card: CardBase, effect: Cheat) -> None:
    """Cheat! on an item: used against the rules and its restriction, refused, kept on it."""
    both = ["Validator Helm", "Validator Tiara"]
    hand = [card.name, "Validator Tiara"]
    _cheated_item_runs(ctx, card, both)
    _cheat_refusals(ctx, card, hand)
    _cheat_kept_runs(ctx, card, both, hand)
    if ctx.set_code in SHIP_SETS:
        _second_ship_run(ctx, card)


def _cheated_item_runs(ctx: CheckContext, card: CardBase, both: list[str]) -> None:
    """An item used under it, from the hand or carried: the Helm and the Tiara both count."""
    # The Tiara is a second Headgear, and only for a female character: with Cheat! it counts.
    ctx.run(
        "an item used against the rules and its restriction",
        {
            "players": [
                player("Hero", 1, in_play=["Validator Helm"], hand=[card.name, "Validator Tiara"]),
                player("Rival"),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                {"kick_door": "Hero"},
            ],
            "expect": {
                "equipped": {"Hero": ["Validator Helm", "Validator Tiara"]},
                "in_play": {"Hero": [card.name]},
            },
        },
        expect_values(fighter_strength=1 + items_bonus(["Validator Helm", "Validator Tiara"])),
        covers=[Cheat],
    )
    # An item already on the table but carried (a second Headgear, for a female only) is
    # brought into use by the Cheat just the same.
    ctx.run(
        "a carried item brought into use",
        {
            "players": [player("Hero", 1, in_play=both, hand=[card.name]), player("Rival")],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                {"kick_door": "Hero"},
            ],
            "expect": {"equipped": {"Hero": both}, "hand_sizes": {"Hero": 0}},
        },
        expect_values(fighter_strength=1 + items_bonus(both)),
        covers=[Cheat],
    )


def _cheat_refusals(ctx: CheckContext, card: CardBase, hand: list[str]) -> None:
    """Refused, the cards kept: no item, an item from the hand at the wrong time, twice."""
    # Refused, the cards kept: with no item named; with an item from the hand in a combat, or
    # on another player's turn (items come into play from the hand only then: core rules).
    refusals: list[tuple[str, dict[str, Any]]] = [
        (
            "refused with no item named",
            {
                "players": [player("Hero", 1, hand=hand), player("Rival")],
                "steps": [{"play": card.name, "by": "Hero"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 2}},
            },
        ),
        (
            "refused for an item from the hand in a combat",
            {
                "players": [player("Hero", 1, hand=hand), player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"play": card.name, "by": "Hero", "with": "Validator Tiara"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 2}, "fighter_strength": 1},
            },
        ),
        (
            "refused for an item from the hand on another's turn",
            {
                "players": [player("Hero", 1), player("Rival", 1, hand=hand)],
                "steps": [{"play": card.name, "by": "Rival", "with": "Validator Tiara"}],
                "expect": {
                    "error": True,
                    "hand_sizes": {"Rival": 2},
                    "not_in_play": {"Rival": ["Validator Tiara"]},
                },
            },
        ),
        (
            "refused a second time on the same item",
            {
                "players": [player("Hero", 1, hand=[card.name, *hand]), player("Rival")],
                "steps": [
                    {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                    {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                ],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
        ),
        (
            "refused on a card that is not an item",
            {
                "players": [
                    player("Hero", 1, in_play=["Validator Henchman"], hand=[card.name]),
                    player("Rival"),
                ],
                "steps": [{"play": card.name, "by": "Hero", "with": "Validator Henchman"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
        ),
    ]
    for label, document in refusals:
        ctx.run(label, document)


def _cheat_kept_runs(ctx: CheckContext, card: CardBase, both: list[str], hand: list[str]) -> None:
    """The item under it takes no slot, and stays under it when set aside and worn again."""
    # The item under Cheat! is outside the rules, so it takes no slot from another item: a
    # female Hero cheating with her Helm still wears the Tiara as her one Headgear.
    ctx.run(
        "an item under it leaves its slot free",
        {
            "players": [
                player("Hero", 1, sex="female", in_play=["Validator Helm"], hand=hand),
                player("Rival"),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Helm"},
                {"equip": "Validator Tiara", "by": "Hero"},
                {"kick_door": "Hero"},
            ],
            "expect": {"equipped": {"Hero": both}},
        },
        expect_values(fighter_strength=1 + items_bonus(both)),
    )
    # It stays attached to the item: set aside and worn again, the Tiara is still the male
    # Hero's second Headgear.
    ctx.run(
        "an item under it worn again after being set aside",
        {
            "players": [
                player("Hero", 1, in_play=["Validator Helm"], hand=hand),
                player("Rival"),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                {"unequip": "Validator Tiara", "by": "Hero"},
                {"equip": "Validator Tiara", "by": "Hero"},
                {"kick_door": "Hero"},
            ],
            "expect": {"equipped": {"Hero": both}},
        },
        expect_values(fighter_strength=1 + items_bonus(both)),
    )


def _second_ship_run(ctx: CheckContext, card: CardBase) -> None:
    """Munchkin Booty's rules name Cheat! as what lets a player have a second Ship; with more
    than one, the best Run Away bonus counts (not the sum, nor the worst). The Hero (Level 3)
    sails the +1 Ketch and cheats the +2 Clipper into play, then runs from the enraged Ogre:
    a 3 gets away with the Clipper's +2, where the Ketch's +1 would be caught."""
    ketch, clipper = "Validator Ketch", "Validator Clipper"
    ships = [
        {
            "name": name,
            "deck": "door",
            "kind": "ship",
            "slot": "ship",
            "big": True,
            "bonus": 1,
            "gold": 300,
            "effects": [{"type": "runaway", "amount": amount}],
            "encoding": {"status": "full"},
        }
        for name, amount in ((ketch, 1), (clipper, 2))
    ]
    ctx.run(
        "a second Ship under it, the best Run Away bonus counts",
        {
            "players": [
                player("Hero", 3, in_play=[ketch], hand=[card.name, clipper]),
                player("Rival", 1, hand=[RAGE]),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": clipper},
                {"kick_door": "Hero"},
                {"play": RAGE, "by": "Rival", "on": OGRE},
                {"resolve": True},
            ],
            "dice": [3],
            "cards": ships,
            "expect": {"in_play": {"Hero": [ketch, clipper]}},
        },
        expect_values(outcome="escaped", levels={"Hero": 3}),
    )
    ctx.run(
        "without it, a second Ship is refused",
        {
            "players": [player("Hero", 3, in_play=[ketch], hand=[clipper])],
            "steps": [{"play": clipper, "by": "Hero"}],
            "cards": ships,
            "expect": {
                "error": "one Ship at a time",
                "in_play": {"Hero": [ketch]},
                "not_in_play": {"Hero": [clipper]},
                "hand_sizes": {"Hero": 1},
            },
        },
    )


CHEAT_CHECKS: dict[type[EffectBase], PlayedCheck] = {
    ExtraCharacterCard: _extra_character_check,
    Cheat: _cheat_check,
}
