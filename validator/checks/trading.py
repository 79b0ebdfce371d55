"""Checks of what an item under test may be traded for, and with whom: the limits every set's
rules put on trading beyond the item's own (see `items._trade_checks`). Only Items change hands
(Super Munchkin adds Sidekicks that have a Gold value; a Hireling never does); a player has one
Ship at a time (Munchkin Booty: a Ship is Big yet does not count as one's Big item), and a Ship
takes the enhancers fitted to it along when it changes hands; a dead character can be given
nothing until the next turn brings him back (core rules, Death).

The companions these need are defined here, inline in the scenarios that use them, so that no
other card's scenarios carry them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from validator.checks.runner import CheckContext

_FULL = {"status": "full"}

# Munchkin Booty's Ships, as its rules describe them: Big, found in the Door deck.
SLOOP = "Validator Trade Sloop"
RAFT = "Validator Trade Raft"
SAILS = "Validator Trade Sails"  # a Ship enhancer, fitted to one Ship for good
# Super Munchkin's Sidekicks: one with a Gold value (tradable), one without (never traded).
SQUIRE = "Validator Priced Sidekick"
KID = "Validator Unpriced Sidekick"
# A Hireling with a Gold value all the same: its price does not make it an Item.
HIRED_HAND = "Validator Priced Hireling"
# A monster whose Bad Stuff is death, out of reach of any Level, to leave a dead character.
REAPER = "Validator Reaper"

COMPANIONS: dict[str, dict[str, Any]] = {
    SLOOP: {"deck": "door", "kind": "ship", "slot": "ship", "big": True, "bonus": 2, "gold": 400},
    RAFT: {"deck": "door", "kind": "ship", "slot": "ship", "big": True, "bonus": 1, "gold": 200},
    SAILS: {
        "deck": "treasure",
        "kind": "item",
        "slot": "other",
        "bonus": 1,
        "gold": 200,
        "tags": ["ship-enhancer"],
    },
    SQUIRE: {"deck": "treasure", "kind": "sidekick", "bonus": 1, "gold": 300},
    KID: {"deck": "treasure", "kind": "sidekick", "bonus": 1, "gold": 0},
    HIRED_HAND: {"deck": "treasure", "kind": "hireling", "bonus": 1, "gold": 300},
    REAPER: {
        "deck": "door",
        "kind": "monster",
        "level": 30,
        "treasures": 1,
        "levels_gained": 1,
        "bad_stuff": [{"type": "death"}],
    },
}


def inline(*names: str) -> list[dict[str, Any]]:
    """The documents of these companions, for a scenario's `cards`."""
    return [{"name": name, **COMPANIONS[name], "encoding": _FULL} for name in names]


def trade_limit_checks(
    ctx: CheckContext,
    name: str,
    owner: dict[str, Any],
    partner: Callable[..., dict[str, Any]],
) -> None:
    """The item under test (on `owner`'s table, Hero) traded with a rival (`partner(*items)`,
    Rival) whose companions decide whether the trade stands."""

    def trade(label: str, table: dict[str, Any], take: list[str], expect: dict[str, Any]) -> None:
        companions = sorted(
            {n for p in table["players"] for n in [*p.get("in_play", []), *p.get("hand", [])]}
            & set(COMPANIONS)
        )
        ctx.run(
            label,
            {
                "cards": inline(*companions),
                **table,
                "steps": [
                    {"give": [name], "by": "Hero", "to": "Rival", "take": take},
                    *table.get("steps", []),
                ],
                "expect": expect,
            },
        )

    # Ships: the rival's own Ship stays beside what he is given; one Ship comes in for the
    # item; a second one is refused, and the trade does not happen.
    trade(
        "given to a player who has a Ship",
        {"players": [owner, partner(SLOOP)]},
        [],
        {"in_play": {"Rival": [name, SLOOP]}, "not_in_play": {"Hero": [name]}},
    )
    trade(
        "traded for a Ship by a player who has none",
        {"players": [owner, partner(SLOOP)]},
        [SLOOP],
        {"in_play": {"Hero": [SLOOP], "Rival": [name]}, "not_in_play": {"Rival": [SLOOP]}},
    )
    trade(
        "not traded for a second Ship",
        {"players": [{**owner, "in_play": [*owner["in_play"], RAFT]}, partner(SLOOP)]},
        [SLOOP],
        {
            "error": "one Ship",
            "in_play": {"Hero": [name, RAFT], "Rival": [SLOOP]},
            "not_in_play": {"Hero": [SLOOP], "Rival": [name]},
        },
    )
    # A Ship takes the enhancer fitted to it wherever it goes (Booty): the rival, whose turn it
    # is, fits Sails to his Ship and trades it for the item, then takes it back for the item.
    fitter = {**partner(SLOOP), "hand": [SAILS]}
    ctx.run(
        "traded for a Ship with its enhancer, and back",
        {
            "cards": inline(SLOOP, SAILS),
            "players": [fitter, owner],
            "steps": [
                {"play": SAILS, "by": "Rival", "with": SLOOP},
                {"give": [SLOOP], "by": "Rival", "to": "Hero", "take": [name]},
                {"give": [name], "by": "Rival", "to": "Hero", "take": [SLOOP]},
            ],
            "expect": {
                "in_play": {"Rival": [SLOOP, SAILS], "Hero": [name]},
                "not_in_play": {"Hero": [SLOOP, SAILS], "Rival": [name]},
            },
        },
    )
    # Followers: a Sidekick with a Gold value comes over as the new owner's Sidekick (so that
    # a second one is then refused him); one without a price, or a Hireling, never moves.
    hero_with_kid = {**owner, "hand": [*owner.get("hand", []), KID]}
    trade(
        "traded for a Sidekick with a Gold value, which becomes its new owner's",
        {
            "players": [hero_with_kid, partner(SQUIRE)],
            "steps": [{"play": KID, "by": "Hero"}],
        },
        [SQUIRE],
        {
            "error": "one Sidekick",
            "in_play": {"Hero": [SQUIRE], "Rival": [name]},
            "not_in_play": {"Hero": [KID, name]},
            "hand_sizes": {"Hero": len(hero_with_kid["hand"])},
        },
    )
    for label, follower, refusal in (
        ("not traded for a Sidekick without a Gold value", KID, "Gold value"),
        ("not traded for a Hireling, even one with a price", HIRED_HAND, "not an Item"),
    ):
        trade(
            label,
            {"players": [owner, partner(follower)]},
            [follower],
            {
                "error": refusal,
                "in_play": {"Hero": [name], "Rival": [follower]},
                "not_in_play": {"Hero": [follower], "Rival": [name]},
            },
        )
    # Death: the rival whose turn it is dies fighting (the roll to run away fails); until the
    # next turn he can be given nothing, and the item stays with its owner.
    rival = partner()
    ctx.run(
        "not given to a dead character",
        {
            "cards": inline(REAPER),
            "players": [{**rival, "level": 1}, owner],
            "combat": {"fighter": "Rival", "monsters": [REAPER]},
            "dice": [1],
            "steps": [{"resolve": True}, {"give": [name], "by": "Hero", "to": "Rival"}],
            "expect": {
                "dead": ["Rival"],
                "error": "dead",
                "in_play": {"Hero": [name]},
                "not_in_play": {"Rival": [name]},
            },
        },
    )
