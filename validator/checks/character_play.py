"""Checks of when a character card (a Race, a Class, and the like) comes into play, as every
set's rules put it: on its player's own turn only; one card of its kind at a time, a new one
taking the place of the old (which is discarded); never the same card twice."""

from __future__ import annotations

from validator.checks.references import DRIFTER
from validator.checks.runner import CheckContext, _player
from validator.engine import CharacterCard

# Kinds of which a character has any number (Origins), or as many as the Level allows (Powers):
# the one-at-a-time rule is not theirs.
UNLIMITED = ("origin", "power")
# A plain card of each kind that the references have, for the one being replaced.
PLAIN = {"race": "Validator Stranger", "class": DRIFTER}


def _character_play_checks(ctx: CheckContext, card: CharacterCard) -> None:
    name = card.name
    axis = card.kind_name
    ctx.run(
        "not played on another player's turn",
        {
            "players": [_player("Hero", 3), _player("Rival", 3, hand=[name])],
            "steps": [{"play": name, "by": "Rival"}],
            "expect": {
                "error": "own turn",
                "hand_sizes": {"Rival": 1},
                "not_in_play": {"Rival": [name]},
            },
        },
    )
    if axis in UNLIMITED:
        return
    old = PLAIN.get(axis)
    if old is None:
        return
    ctx.run(
        f"takes the place of another {axis}",
        {
            "players": [_player("Hero", 3, in_play=[old], hand=[name]), _player("Rival")],
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
            "players": [_player("Hero", 3, in_play=[name], hand=[name]), _player("Rival")],
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"error": "already", "in_play": {"Hero": [name]}, "hand_sizes": {"Hero": 1}},
        },
    )
