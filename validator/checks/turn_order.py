"""Checks of when a monster card can be met, as every set's rules order a turn: the door is
kicked open once, by the player whose turn it is and out of combat; a monster from the hand
is fought ("looking for trouble") only after that door brought no monster, and only by that
player; the room is looted only after the door is open; a turn does not end mid-fight;
Charity at its end. A monster with a joining tag (Undead and the like) also joins a fight with
another of its tag from any hand. Every refusal leaves the monster card where it was. What a
monster's own text brings into the turn: one that refuses some characters, swapped in against
one of them, ends the fight; one that kills leaves its victim a fresh hand on his next turn,
drawn once only."""

from __future__ import annotations

from typing import Any

from validator.checks.monsters import Fight, arrange_fight
from validator.checks.references import OGRE
from validator.checks.runner import CheckContext, player
from validator.engine import Death, MonsterCard, NoPursuit, RefusesCombat

DOOR = "Validator Door"  # a Door card that is no monster: kicked open, it goes to the hand
TRINKET = "Validator Trinket"  # a Treasure card with nothing to it


# Tags under which a monster from the hand joins a fight with another monster of that tag:
# the core rules' Undead, Booty's Sharks, Impossible's "In Black". The checks keep their own
# list, read from the rulebooks, rather than the engine's: an oracle that shared the engine's
# list could not catch a tag missing from it.
JOINING_TAGS = ("undead", "shark", "in-black")


def _joining_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """A monster with a joining tag is played from any player's hand into a fight with another
    of its tag (here a second copy of itself); never into a fight with none (the Ogre), and
    never when there is no fight."""
    name = card.name
    joined = {"players": [player("Hero", 3), player("Rival", 3, hand=[name])]}
    ctx.run(
        "joins a fight with a monster of its tag from a rival's hand",
        {
            **joined,
            "combat": {"fighter": "Hero", "monsters": [name]},
            "steps": [{"join": name, "by": "Rival"}],
            "expect": {"hand_sizes": {"Rival": 0}},
        },
    )
    # One monster of its tag is enough, whatever else is in the fight.
    ctx.run(
        "joins a fight with the Ogre and a monster of its tag",
        {
            **joined,
            "combat": {"fighter": "Hero", "monsters": [OGRE, name]},
            "steps": [{"join": name, "by": "Rival"}],
            "expect": {"hand_sizes": {"Rival": 0}},
        },
    )
    for label, fight, error in (
        (
            "not joined to a fight with no monster of its tag",
            {"fighter": "Hero", "monsters": [OGRE]},
            "joining tag",
        ),
        ("not joined when there is no fight", None, True),
    ):
        ctx.run(
            label,
            {
                **joined,
                **({"combat": fight} if fight else {}),
                "steps": [{"join": name, "by": "Rival"}],
                "expect": {"error": error, "hand_sizes": {"Rival": 1}},
            },
        )


# Illusion's effect (core rules): a monster in the fight swapped for one from its player's hand.
ILLUSION = "Validator Illusion"
ILLUSION_DOCUMENT: dict[str, Any] = {
    "name": ILLUSION,
    "deck": "door",
    "kind": "other_door",
    "timing": "combat",
    "effects": [{"type": "replace_monster"}],
    "encoding": {"status": "full"},
}


def _swapped_in_refusal_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """A monster that will not fight some characters, swapped in from the hand (Illusion) against
    one of them, leaves at once: the fight it was brought into is over, with the Treasure its
    card gives instead, no level, and the turn may end."""
    for refusal in (e for e in card.effects if isinstance(e, RefusesCombat)):
        refused = Fight() if refusal.when is None else arrange_fight(refusal.when, True)
        if refused is None or refusal.trade_treasures:
            continue
        ctx.run(
            "swapped into a fight against a character it refuses, it ends the fight",
            {
                "cards": [ILLUSION_DOCUMENT],
                "players": [refused.hero(2, hand=[ILLUSION, card.name]), player("Rival", 3)],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "deck": {"treasure": [TRINKET] * refusal.treasures},
                "steps": [
                    {"play": ILLUSION, "by": "Hero", "on": OGRE, "with": card.name},
                    {"end_turn": True},
                ],
                "expect": {
                    "levels": {"Hero": 2},
                    "treasures_drawn": refusal.treasures,
                    "hand_sizes": {"Hero": refusal.treasures},
                },
            },
        )


def _death_return_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """Death (core rules): its victim's new character starts his next turn by drawing four
    face-down cards from each deck, once only (the eight themselves are the victims' checks'):
    a round later, three of the eight went as Charity to the lower-Level Rival, and nothing more
    was drawn. A Level 8 Hero, above any Level it ignores, caught on a roll of 1."""
    if not any(isinstance(b, Death) for b in card.bad_stuff or []):
        return
    level = max([8, *(e.max_level + 1 for e in card.effects if isinstance(e, NoPursuit))])
    if level >= 10:
        return
    # Each end of turn hands it on: the Rival's turn (the dead come back), the Hero's (the
    # fresh start), the Rival's, and the Hero's again.
    ctx.run(
        "its victim draws a fresh hand only once",
        {
            "players": [player("Hero", level), player("Rival", 3)],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "deck": {"door": [DOOR] * 5, "treasure": [TRINKET] * 5},
            "dice": [1],
            "steps": [{"resolve": True}, *[{"end_turn": True}] * 4],
            "expect": {
                "dead": [],
                "levels": {"Hero": level},
                "hand_sizes": {"Hero": 5, "Rival": 3},
            },
        },
    )


def turn_order_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """When a monster card can be met in a turn, and each refusal's table."""
    name = card.name
    if set(card.tags) & set(JOINING_TAGS):
        _joining_checks(ctx, card)
    _swapped_in_refusal_checks(ctx, card)
    _death_return_checks(ctx, card)
    owner = player("Hero", 3, hand=[name])
    refusals: list[tuple[str, dict[str, Any], str, dict[str, int]]] = [
        # (label, the table, what the refusal says, the hand sizes after it)
        (
            "not fought from the hand before the door is kicked open",
            {
                "players": [owner, player("Rival")],
                "steps": [{"look_for_trouble": name, "by": "Hero"}],
            },
            "phase",
            {"Hero": 1},
        ),
        (
            "not fought from the hand on another's turn",
            {
                "players": [player("Rival"), owner],
                "deck": {"door": [DOOR]},
                "steps": [{"kick_door": "Rival"}, {"look_for_trouble": name, "by": "Hero"}],
            },
            "turn",
            {"Hero": 1, "Rival": 1},
        ),
        (
            "not fought from the hand in the middle of a fight",
            {
                "players": [owner, player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"look_for_trouble": name, "by": "Hero"}],
            },
            "combat",
            {"Hero": 1},
        ),
        (
            "not fought from the hand after this turn's fight",
            {
                "players": [
                    player("Hero", 3, hand=[name], in_play=["Validator Gauntlet"]),
                    player("Rival"),
                ],
                "deck": {"door": [OGRE], "treasure": ["Validator Trinket"] * 2},
                "steps": [
                    {"kick_door": "Hero"},
                    {"resolve": True},
                    {"look_for_trouble": name, "by": "Hero"},
                ],
            },
            "already fought",
            # The Ogre's two Treasures join the monster card still in the hand.
            {"Hero": 3},
        ),
        (
            "no trouble looked for with a Door card that is no monster",
            {
                "players": [owner, player("Rival")],
                "deck": {"door": [DOOR]},
                "steps": [{"kick_door": "Hero"}, {"look_for_trouble": DOOR, "by": "Hero"}],
            },
            "not a monster",
            {"Hero": 2},
        ),
        (
            "no second door kicked open before it is fought",
            {
                "players": [owner, player("Rival")],
                "deck": {"door": [DOOR, name]},
                "steps": [{"kick_door": "Hero"}, {"kick_door": "Hero"}],
            },
            "kick",
            {"Hero": 2},
        ),
        (
            "no door kicked open by another player",
            {
                "players": [player("Rival"), owner],
                "deck": {"door": [name]},
                "steps": [{"kick_door": "Hero"}],
            },
            "turn",
            {"Hero": 1, "Rival": 0},
        ),
        (
            "no door kicked open in the middle of a fight",
            {
                "players": [owner, player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "deck": {"door": [DOOR]},
                "steps": [{"kick_door": "Hero"}],
            },
            "combat",
            {"Hero": 1},
        ),
        (
            "no room looted before the door is kicked open",
            {
                "players": [owner, player("Rival")],
                "deck": {"door": [DOOR]},
                "steps": [{"loot_room": "Hero"}],
            },
            "phase",
            {"Hero": 1},
        ),
        (
            "no turn ended in the middle of a fight",
            {
                "players": [owner, player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"end_turn": True}],
            },
            "combat",
            {"Hero": 1},
        ),
    ]
    for label, table, error, hands in refusals:
        ctx.run(label, {**table, "expect": {"error": error, "hand_sizes": hands}})
    # A fight on one turn does not stop the next player, whose own turn begins when the first
    # ends (the player on the left: the second of three) and who meets this card from the hand.
    ctx.run(
        "fought from the hand on the next player's turn",
        {
            "players": [
                player("Hero", 3, in_play=["Validator Gauntlet"]),
                player("Rival", 3, hand=[name]),
                player("Third", 3),
            ],
            "deck": {"door": [OGRE, DOOR], "treasure": ["Validator Trinket"] * 2},
            "steps": [
                {"kick_door": "Hero"},
                {"resolve": True},
                {"end_turn": True},
                {"kick_door": "Rival"},
                {"look_for_trouble": name, "by": "Rival"},
            ],
            "expect": {"hand_sizes": {"Hero": 2, "Rival": 1, "Third": 0}},
        },
    )
    # Kept in a hand of six at the end of a turn, one card too many goes as Charity to the
    # lowest-Level player; a player who is the lowest, even tied, discards it instead.
    six = [name, DOOR, "Validator Helm", "Validator Mail", "Validator Boots", "Validator Sword"]
    charity = [
        ("one card too many given to the lowest player", (4, 2, 1), {"Rival": 0, "Third": 1}),
        (
            "one card too many discarded when tied for the lowest",
            (2, 2, 4),
            {"Rival": 0, "Third": 0},
        ),
    ]
    for label, (hero, rival, third), others in charity:
        ctx.run(
            label,
            {
                "players": [
                    player("Hero", hero, hand=six),
                    player("Rival", rival),
                    player("Third", third),
                ],
                "steps": [{"end_turn": True}],
                "expect": {"hand_sizes": {"Hero": 5, **others}},
            },
        )
    # A fight means no room to loot on that turn, the next player's as much as the first's.
    ctx.run(
        "no room looted after a fight on the next player's turn",
        {
            "players": [
                player("Hero", 3, hand=[name]),
                player("Rival", 3, in_play=["Validator Gauntlet"]),
            ],
            "deck": {"door": [OGRE, DOOR], "treasure": ["Validator Trinket"] * 2},
            "steps": [
                {"end_turn": True},
                {"kick_door": "Rival"},
                {"resolve": True},
                {"loot_room": "Rival"},
            ],
            "expect": {"error": "fought", "hand_sizes": {"Hero": 1, "Rival": 2}},
        },
    )
    # With the core rules' faster play, each turn opens by listening at the door: the next
    # player draws the top Door card (this one) into the hand before anything else.
    ctx.run(
        "drawn into the next player's hand by listening at the door",
        {
            "options": {"faster_play": True},
            "players": [player("Hero", 3), player("Rival", 3)],
            "deck": {"door": [name, DOOR]},
            "steps": [{"end_turn": True}],
            "expect": {"hand_sizes": {"Hero": 0, "Rival": 1}},
        },
    )
    # The door that brought no monster allows the fight from the hand, whether the card is
    # named to look for trouble or simply played; either way the fight is on, so the turn
    # cannot end before it is over.
    for label, step in (
        ("fought from the hand after a door with no monster", {"look_for_trouble": name}),
        ("played from the hand after a door with no monster, it is fought", {"play": name}),
    ):
        ctx.run(
            label,
            {
                "players": [owner, player("Rival")],
                "deck": {"door": [DOOR]},
                "steps": [{"kick_door": "Hero"}, {**step, "by": "Hero"}, {"end_turn": True}],
                "expect": {"error": "combat", "hand_sizes": {"Hero": 1}},
            },
        )
