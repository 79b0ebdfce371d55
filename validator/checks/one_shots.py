"""Checks of the cards played once for an immediate gain: one-shots (their bonus on each side,
then the effects that come with playing them), monster enhancers on a reference monster
(strength and Treasure, with their floors), and Go Up a Level cards (a level for its player,
never the winning one nor a dead character's, their condition and timing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from validator.checks.played import Source, outcomes_check, played_checks
from validator.checks.references import OGRE
from validator.checks.runner import CheckContext, expect_values, player, typing_literal
from validator.checks.trading import REAPER, inline
from validator.engine import (
    CancelCurse,
    EffectBase,
    GainLevels,
    KillMonster,
    LevelCard,
    MonsterEnhancerCard,
    OneShotCard,
    OutcomeBase,
)


def one_shot_checks(ctx: CheckContext, card: OneShotCard) -> None:
    """A one-shot's bonus on each side, then the effects that come with playing it."""
    name = card.name
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    if card.bonus:
        if card.side in ("either", "player"):
            ctx.run(
                "its bonus for the munchkins",
                {
                    "players": [player("Hero", 2, hand=[name]), player("Rival")],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Hero"}],
                },
                expect_values(fighter_strength=2 + card.bonus, monster_strength=5),
                covers=["one_shot_bonus"],
            )
        if card.side in ("either", "monster") and not any(
            isinstance(e, KillMonster) for e in card.effects
        ):
            ctx.run(
                "its bonus for the monster",
                {
                    "players": [player("Hero", 2), player("Rival", 1, hand=[name])],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Rival", "on": OGRE}],
                },
                expect_values(fighter_strength=2, monster_strength=5 + card.bonus),
                covers=["one_shot_bonus"],
            )
    # Used once and gone, it is played, never worn: equipping it is refused, the card kept.
    ctx.run(
        "never equipped like a lasting item",
        {
            "players": [player("Hero", 2, hand=[name]), player("Rival")],
            "steps": [{"equip": name, "by": "Hero"}],
            "expect": {"error": True, "hand_sizes": {"Hero": 1}, "not_in_play": {"Hero": [name]}},
        },
    )
    if card.played_by == "combatant":
        # The card says only someone taking part in the fight plays it: a bystander is refused.
        ctx.run(
            "refused to a player outside the fight",
            {
                "players": [player("Hero", 2), player("Rival", 1, hand=[name])],
                "combat": fight,
                "steps": [{"play": name, "by": "Rival"}],
                "expect": {"error": "taking part", "hand_sizes": {"Rival": 1}},
            },
            expect_values(fighter_strength=2, monster_strength=5),
        )
    if not any(isinstance(e, OutcomeBase | CancelCurse) for e in card.effects):
        _table_checks(ctx, card)
    played_checks(ctx, card)
    # A one-shot may be used in a combat too (core rules, "One-Shot Treasures"): what it gives
    # is given there just the same.
    outcomes = [e for e in card.effects if isinstance(e, OutcomeBase)]
    if outcomes and getattr(card, "timing", "any") in (None, "any"):
        outcomes_check(ctx, Source(card), outcomes, fight=True)


def _table_checks(ctx: CheckContext, card: OneShotCard) -> None:
    """A one-shot used in combat may wait on the table: put there on its owner's own turn out
    of combat (never on another's), and used from there in a combat only (core rules,
    "Treasures" and "One-Shot Treasures")."""
    name = card.name
    ctx.run(
        "put on the table out of combat",
        {
            "players": [player("Hero", 2, hand=[name]), player("Rival")],
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"in_play": {"Hero": [name]}, "hand_sizes": {"Hero": 0}},
        },
    )
    ctx.run(
        "not put on the table on another's turn",
        {
            "players": [player("Hero", 2), player("Rival", 1, hand=[name])],
            "steps": [{"play": name, "by": "Rival"}],
            "expect": {
                "error": True,
                "hand_sizes": {"Rival": 1},
                "not_in_play": {"Rival": [name]},
            },
        },
    )
    ctx.run(
        "used from the table only in combat",
        {
            "players": [player("Hero", 2, in_play=[name]), player("Rival")],
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"error": True, "in_play": {"Hero": [name]}},
        },
    )
    if card.bonus and card.side in ("either", "player"):
        ctx.run(
            "its bonus played from the table",
            {
                "players": [player("Hero", 2, in_play=[name]), player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"play": name, "by": "Hero"}],
                "expect": {"not_in_play": {"Hero": [name]}},
            },
            expect_values(fighter_strength=2 + card.bonus, monster_strength=5),
            covers=["one_shot_bonus"],
        )


def enhancer_checks(ctx: CheckContext, card: MonsterEnhancerCard) -> None:
    """A monster enhancer on the Ogre: strength and Treasure, with their floors."""
    name = card.name
    strength = 5 + (card.strength or 0)
    if card.strength_floor is not None:
        strength = max(strength, card.strength_floor)
    treasures = 2 + (card.treasures or 0)
    if card.treasures_floor is not None:
        treasures = max(treasures, card.treasures_floor)
    ctx.run(
        "on a reference monster",
        {
            "players": [
                player("Hero", 1, in_play=["Validator Gauntlet"]),
                player("Rival", 1, hand=[name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": name, "by": "Rival", "on": OGRE}, {"resolve": True}],
        },
        expect_values(monster_strength=strength, outcome="won", treasures_drawn=treasures),
        covers=["enhancer"],
    )


def level_card_checks(ctx: CheckContext, card: LevelCard) -> None:
    """A Go Up a Level card: a level for its player, its condition and timing."""
    name = card.name
    gain = sum(e.amount for e in card.effects if isinstance(e, GainLevels))
    henchman = (
        ["Validator Henchman"]
        if card.requires and card.requires.key in ("has_in_play", "in_play_anywhere")
        else []
    )
    # A card played only after a (won) fight: the Hero first kills the Ogre (one level).
    after = card.timing in ("after_combat", "after_any_combat")
    fight: dict[str, Any] = {"combat": {"fighter": "Hero", "monsters": [OGRE]}} if after else {}
    gear = ["Validator Gauntlet"] if after else []
    kill = [{"resolve": True}] if after else []

    def played(level: int, table: list[str], rival: int, **expect: Any) -> dict[str, Any]:
        return {
            "players": [
                player("Hero", level - after, hand=[name], in_play=gear + table),
                player("Rival", rival),
            ],
            **fight,
            "steps": [*kill, {"play": name, "by": "Hero"}],
            **({"expect": expect} if expect else {}),
        }

    discards = [e for e in card.effects if typing_literal(type(e)) == "discard_card"]
    if card.requires is None or henchman or card.requires.key == "not":
        # A card it discards goes from the table (the Henchman, the reference hireling); a
        # Helm beside it, of another kind, stays.
        gone = ["Validator Henchman"] if discards and _discards_hirelings(discards) else []
        kept = ["Validator Helm"] if gone else []
        seen = {"in_play": {"Hero": kept}, "not_in_play": {"Hero": gone}} if gone else {}
        ctx.run(
            "a level for its player" + (", its Hireling discarded" if gone else ""),
            played(3, kept + sorted(set(henchman + gone)), 5, **seen),
            expect_values(levels={"Hero": 3 + gain}),
            covers=[GainLevels, *(["discard_card"] if gone else [])],
        )
    ctx.run(
        "never the winning level",
        played(9, henchman, 9, error=True),
        expect_values(levels={"Hero": 9}),
    )
    if card.requires is not None and card.requires.key in (
        "has_in_play",
        "in_play_anywhere",
        "not",
    ):
        ctx.run(
            "refused when its condition fails",
            played(3, [], 1, error="playable only"),
            covers=["requires"],
        )
    if card.requires is not None and card.requires.key == "in_play_anywhere":
        # Another player's card meets the condition; a card the play discards goes from that
        # player's table when its discard reaches any player's.
        rivals = discards and _discards_hirelings(discards) and _discards_anyones(discards)
        ctx.run(
            "a rival's card in play will do",
            {
                "players": [
                    player("Hero", 3 - after, hand=[name], in_play=gear),
                    player("Rival", 5, in_play=henchman),
                ],
                **fight,
                "steps": [*kill, {"play": name, "by": "Hero"}],
                "expect": {"not_in_play": {"Rival": henchman}} if rivals else {},
            },
            expect_values(levels={"Hero": 3 + gain, "Rival": 5}),
            covers=["requires", *(["discard_card"] if rivals else [])],
        )
    if not after and card.requires is None:
        # Core rules, Death: until the next turn brings him back, a dead character gains no
        # level; played on the Rival just killed (a roll of 1 against the Reaper), it is refused.
        ctx.run(
            "refused on a dead character",
            {
                "cards": inline(REAPER),
                "players": [player("Rival", 2), player("Hero", 3, hand=[name])],
                "combat": {"fighter": "Rival", "monsters": [REAPER]},
                "dice": [1],
                "steps": [{"resolve": True}, {"play": name, "by": "Hero", "on": "Rival"}],
                "expect": {
                    "error": "dead",
                    "dead": ["Rival"],
                    "levels": {"Rival": 2, "Hero": 3},
                    "hand_sizes": {"Hero": 1},
                },
            },
        )
    if card.timing == "after_any_combat":
        # Core rules: losing, the side runs (5 or more on the die escapes the Ogre, Level 5
        # against the Hero's 3); the fight is over all the same, so the card plays.
        ctx.run(
            "a level after a fight fled",
            {
                "players": [player("Hero", 3, hand=[name], in_play=henchman), player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "dice": [6],
                "steps": [{"resolve": True}, {"play": name, "by": "Hero"}],
                "expect": {"outcome": "escaped"},
            },
            expect_values(levels={"Hero": 3 + gain}),
            covers=["timing"],
        )
    if after:
        ctx.run(
            "refused before a fight is won",
            {
                "players": [player("Hero", 3, hand=[name], in_play=henchman), player("Rival")],
                "steps": [{"play": name, "by": "Hero"}],
                "expect": {"error": True, "levels": {"Hero": 3}},
            },
        )


def _discards_anyones(effects: Sequence[EffectBase]) -> bool:
    """Whether each discard may take the card from any player's table."""
    return all(getattr(e, "owner", "self") == "any" for e in effects)


def _discards_hirelings(effects: Sequence[EffectBase]) -> bool:
    """Whether each discard is of a Hireling (the one kind the references have a card of).
    (`DiscardOwnCard` is not among the engine's exports: its fields are read by name.)"""
    return all(getattr(e, "kind", None) == "hireling" and e.when is None for e in effects)
