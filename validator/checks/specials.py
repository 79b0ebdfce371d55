"""Who may use a monster's special rules, and on which monster: checks beside `monsters`.

`monsters` tries each special rule (walking past, bribing, chasing away) by the fighter against
the monster alone. The rules also say who may do it and what it reaches, and these checks try
that side: only the fighter walks past or bribes (the core rules give the fight to the one who
kicked the door open; a helper only adds strength), someone outside the fight chases nothing
away, an item in the hand pays a bribe as well as one on the table (the card asks for an item,
wherever it is), a monster beside another is named and only it leaves, and a monster without
such a rule is fought (core rules: a monster met must be fought or fled from).
"""

from __future__ import annotations

from typing import Any

from validator.checks.monsters import Fight, _arrange, _monster_checks
from validator.checks.oracle import _gold
from validator.checks.references import OGRE
from validator.checks.runner import CheckContext, _ended_without_kill, _player, expect_values
from validator.engine import Bribe, ChaseAway, MayDecline, MonsterCard

# The reference items a bribe is tried with: 0, 200 and 400 Gold (their documents say so).
BRIBE_OFFERS = ["Validator Trinket", "Validator Helm", "Validator Ram"]


def _monster_and_special_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """The monster's own checks, then who may use its special rules."""
    _monster_checks(ctx, card)
    _special_rule_checks(ctx, card)


def _special_rule_checks(ctx: CheckContext, card: MonsterCard) -> None:
    declines = [e for e in card.effects if isinstance(e, MayDecline)]
    bribes = [e for e in card.effects if isinstance(e, Bribe)]
    chases = [e for e in card.effects if isinstance(e, ChaseAway)]
    if not declines:
        _no_walking_past(ctx, card)
    for decline in declines:
        _decline_checks(ctx, card, decline)
    for bribe in bribes:
        _bribe_checks(ctx, card, bribe)
    for chase in chases:
        _chase_checks(ctx, card, chase)


def _no_walking_past(ctx: CheckContext, card: MonsterCard) -> None:
    """A monster whose card lets no one walk past it is fought: the step is refused."""
    ctx.run(
        "it cannot be walked past",
        {
            "players": [_player("Hero", 1), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"decline": card.name, "by": "Hero"}],
            "expect": {"error": True},
        },
    )


def _decline_checks(ctx: CheckContext, card: MonsterCard, effect: MayDecline) -> None:
    free = Fight() if effect.unless is None else _arrange(effect.unless, False)
    if free is None:
        return
    # Whoever else is at the table, even one the card would let by, cannot walk past the
    # Hero's monster.
    rival = {**free.hero(1), "name": "Rival"}
    ctx.run(
        "only the fighter may walk past it",
        {
            "players": [_player("Hero", 1), rival],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"decline": card.name, "by": "Rival"}],
            "expect": {"error": True, "outcome": "none"},
        },
    )
    # Beside the Ogre (fought first), it is the named monster that goes; the Ogre stays.
    ctx.run(
        "walking past it beside the Ogre, named",
        {
            "players": [free.hero(1), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE, card.name]},
            "steps": [{"decline": card.name, "by": "Hero"}],
            "expect": {"outcome": "none"},
        },
        expect_values(monster_strength=5),
    )


def _bribe_checks(ctx: CheckContext, card: MonsterCard, effect: Bribe) -> None:
    enough = next((i for i in BRIBE_OFFERS if _gold(i) >= effect.min_gold), None)
    if enough is None:
        return  # `monsters` warns that no reference item is worth the bribe
    fight = {"fighter": "Hero", "monsters": [card.name]}
    ctx.run(
        f"bribed with an item worth {_gold(enough)} from the hand",
        {
            "players": [_player("Hero", 1, hand=[enough]), _player("Rival")],
            "combat": fight,
            "steps": [{"bribe": enough, "by": "Hero"}],
        },
        _ended_without_kill(1, 0, hand=0),
    )
    ctx.run(
        "only the fighter may bribe it",
        {
            "players": [_player("Hero", 1), _player("Rival", 1, in_play=[enough])],
            "combat": fight,
            "steps": [{"bribe": enough, "by": "Rival"}],
            "expect": {"error": True, "outcome": "none", "in_play": {"Rival": [enough]}},
        },
    )


def _chase_checks(ctx: CheckContext, card: MonsterCard, effect: ChaseAway) -> None:
    able = _arrange(effect.by, True)
    if able is None:
        return
    # A player the card would allow, but outside the fight, drives nothing off.
    outsider: dict[str, Any] = {**able.hero(1), "name": "Rival"}
    ctx.run(
        "no one outside the fight can drive it off",
        {
            "players": [_player("Hero", 1), outsider],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"chase": card.name, "by": "Rival"}],
            "expect": {"error": True, "outcome": "none"},
        },
    )
