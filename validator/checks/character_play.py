"""Checks of when a character card (a Race, a Class, and the like) comes into play, as every
set's rules put it: on its player's own turn only; one card of its kind at a time, a new one
taking the place of the old (which is discarded); never the same card twice; a Power only while
the total Rank of its player's Powers stays within his Level (Super Munchkin). And what a card
that sells one item at double value (the Halfling) changes in its player's turns: one such
sale a turn, back on his next turn, whatever he sold before becoming one."""

from __future__ import annotations

from typing import Any

from validator.checks.references import DRIFTER
from validator.checks.runner import CheckContext, player, typing_literal
from validator.engine import CharacterCard

# Kinds of which a character has any number (Origins), or as many as the Level allows (Powers):
# the one-at-a-time rule is not theirs.
UNLIMITED = ("origin", "power")
# A plain card of each kind that the references have, for the one being replaced.
PLAIN = {"race": "Validator Stranger", "class": DRIFTER}


def character_play_checks(ctx: CheckContext, card: CharacterCard) -> None:
    """How a character card is played: its turn, one of its kind at a time, a Power's Rank."""
    name = card.name
    axis = card.kind_name
    if any(typing_literal(type(e)) == "sell_double" for e in card.effects):
        _double_sale_checks(ctx, card)
    ctx.run(
        "not played on another player's turn",
        {
            "players": [player("Hero", 3), player("Rival", 3, hand=[name])],
            "steps": [{"play": name, "by": "Rival"}],
            "expect": {
                "error": "own turn",
                "hand_sizes": {"Rival": 1},
                "not_in_play": {"Rival": [name]},
            },
        },
    )
    rank = getattr(card, "rank", None)
    if axis == "power" and isinstance(rank, int):
        _power_rank_checks(ctx, name, rank)
    if axis in UNLIMITED:
        return
    old = PLAIN.get(axis)
    if old is None:
        return
    ctx.run(
        f"takes the place of another {axis}",
        {
            "players": [player("Hero", 3, in_play=[old], hand=[name]), player("Rival")],
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {
                "in_play": {"Hero": [name]},
                "not_in_play": {"Hero": [old]},
                "hand_sizes": {"Hero": 0},
            },
        },
    )
    ctx.run(
        "not played again over itself",
        {
            "players": [player("Hero", 3, in_play=[name], hand=[name]), player("Rival")],
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"error": "already", "in_play": {"Hero": [name]}, "hand_sizes": {"Hero": 1}},
        },
    )


# A Power of Rank 1 with nothing to it, already held beside the one under test.
KNACK = "Validator Knack"
KNACK_DOCUMENT: dict[str, Any] = {
    "name": KNACK,
    "deck": "door",
    "kind": "power",
    "rank": 1,
    "encoding": {"status": "full"},
}


def _power_rank_checks(ctx: CheckContext, name: str, rank: int) -> None:
    """Super Munchkin: a player's Powers may total as many Ranks as his Level, no more. At a
    Level equal to its Rank it comes into play; beside a Rank 1 Power already held, the total
    is one above that Level and it is refused, staying in the hand."""
    for label, in_play, refused in (
        (f"played at Level {rank}, its Rank", [], False),
        (f"not played at Level {rank} beside a Rank 1 Power", [KNACK], True),
    ):
        expect: dict[str, Any] = {
            "hand_sizes": {"Hero": int(refused)},
            ("not_in_play" if refused else "in_play"): {"Hero": [name]},
        }
        if refused:
            expect["error"] = "Rank"
        ctx.run(
            label,
            {
                "cards": [KNACK_DOCUMENT],
                "players": [player("Hero", rank, in_play=in_play, hand=[name]), player("Rival")],
                "steps": [{"play": name, "by": "Hero"}],
                "expect": expect,
            },
        )


# The reference items sold, with their Gold values (the reference set's documents).
RAM, CART = "Validator Ram", "Validator Cart"  # 400 and 300 Gold, the dearest of each lot
SMALL = ["Validator Helm", "Validator Mail", "Validator Boots", "Validator Sword"]  # 200 each
BUCKLER = "Validator Buckler"  # 200 Gold


def _double_sale_checks(ctx: CheckContext, card: CharacterCard) -> None:
    """Once a turn, one item sold at twice its Gold value (the dearest of the lot, here): the
    Ram's 400 doubled and a Helm's 200 make 1,000; the Ram alone doubled makes only 800, and
    no change is given. A second lot of 900 (the Cart's 300 and three Small items) would make
    1,000 with the Cart doubled: refused on the same turn, sold on the player's next; and a
    player who sold at the plain price before becoming one still has his double sale."""
    name = card.name
    first = [RAM, SMALL[0]]
    second = [CART, *SMALL[1:]]
    seller = player("Hero", 3, in_play=[name], hand=[*first, *second])
    sales = [{"sell": first, "by": "Hero"}]
    runs: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        (
            "one item alone, doubled, still short of 1,000 Gold",
            {
                "players": [player("Hero", 3, in_play=[name], hand=[RAM]), player("Rival")],
                "steps": [{"sell": [RAM], "by": "Hero"}],
            },
            {"error": "1,000", "levels": {"Hero": 3}, "hand_sizes": {"Hero": 1}},
        ),
        (
            "no second double sale on the same turn",
            {
                "players": [seller, player("Rival")],
                "steps": [*sales, {"sell": second, "by": "Hero"}],
            },
            {"error": "1,000", "levels": {"Hero": 4}, "hand_sizes": {"Hero": 4}},
        ),
        (
            "the double sale comes back on its player's next turn",
            {
                "players": [seller, player("Rival")],
                "steps": [
                    *sales,
                    {"end_turn": True},
                    {"end_turn": True},
                    {"sell": second, "by": "Hero"},
                ],
            },
            {"levels": {"Hero": 5}, "hand_sizes": {"Hero": 0}},
        ),
        (
            "a plain sale before it comes into play leaves the double sale",
            {
                "players": [
                    player("Hero", 3, hand=[name, *second, BUCKLER, *first]),
                    player("Rival"),
                ],
                # 1,100 Gold at the plain price (no change given), then 1,000 with the Ram doubled.
                "steps": [
                    {"sell": [*second, BUCKLER], "by": "Hero"},
                    {"play": name, "by": "Hero"},
                    *sales,
                ],
            },
            {"levels": {"Hero": 5}, "hand_sizes": {"Hero": 0}, "in_play": {"Hero": [name]}},
        ),
    ]
    for label, table, expect in runs:
        ctx.run(label, {**table, "expect": expect})
