"""Checks of curse cards: what a curse does when cast, on the victims like Bad Stuff; and its
lasting part, which stays in play with the victim and acts later (`LASTING_CHECKS`: a penalty in
the next combat, die rolls changed, bonuses only from one slot).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from validator.checks.oracle import _bonus, predict
from validator.checks.references import EQUIPMENT, ITEM_FACTS, OGRE, RAGE
from validator.checks.runner import (
    CheckContext,
    _kinds,
    _player,
    _predictable,
    _walk,
    expect_values,
    typing_literal,
)
from validator.checks.victims import TABLE_OUTCOMES, Delivery, _victim_runs
from validator.engine import CurseCard, DieRolls, EffectBase, OnlySlotBonuses, OutcomeBase, Strength


def _curse_delivery(card: CurseCard) -> Delivery:
    def deliver(
        players: list[dict[str, Any]], before: list[dict[str, Any]], die: int
    ) -> dict[str, Any]:
        hero = {**players[0], "hand": [card.name, *players[0].get("hand", [])]}
        return {
            "players": [hero, *players[1:]],
            "steps": [*before, {"play": card.name, "by": "Hero", "on": "Hero"}],
            "dice": [die],
        }

    return deliver


def _curse_checks(ctx: CheckContext, card: CurseCard) -> None:
    name = card.name
    outcomes: Sequence[EffectBase] = [e for e in card.effects if isinstance(e, OutcomeBase)]
    lasting = [e for e in card.effects if not isinstance(e, OutcomeBase)]
    if outcomes:
        predictable = all(_predictable(e) for e in outcomes)
        if not predictable:
            names = sorted({typing_literal(type(e)) for e in outcomes if not _predictable(e)})
            ctx.report.warn(
                f"the curse's {', '.join(names)} is run but its result is not predicted"
            )
        shown = [e for e in _walk(outcomes) if not isinstance(e, TABLE_OUTCOMES)]
        _victim_runs(
            ctx,
            outcomes,
            lambda victim, die: predict(outcomes, victim, die),
            _curse_delivery(card),
            caught=False,
            pursued=1,
            dice=[3],
            label="cast",
            covers=_kinds(shown) if predictable else [],
        )
    if lasting:
        values = ctx.run(
            "its lasting part stays with the victim",
            {
                "players": [
                    _player("Hero", 5, in_play=["Validator Helm"]),
                    _player("Rival", 1, hand=[name]),
                ],
                "steps": [{"play": name, "by": "Rival", "on": "Hero"}],
            },
        )
        if values is not None and name not in values["in_play"]["Hero"]:
            ctx.report.fail(f"{name} did not stay in play with its victim")
    for effect in lasting:
        check = LASTING_CHECKS.get(type(effect))
        if check is not None:
            check(ctx, card, effect)


def _cursed_fight(card: CurseCard, level: int, **hero: Any) -> dict[str, Any]:
    """The Rival curses the Hero in the middle of a fight with the Ogre."""
    return {
        "players": [_player("Hero", level, **hero), _player("Rival", 1, hand=[card.name, RAGE])],
        "combat": {"fighter": "Hero", "monsters": [OGRE]},
        "steps": [{"play": card.name, "by": "Rival", "on": "Hero"}],
    }


def _next_combat_penalty_check(ctx: CheckContext, card: CurseCard, effect: Strength) -> None:
    if effect.duration == "next_combat":
        ctx.run(
            "its penalty applies in the next combat",
            _cursed_fight(card, 5),
            expect_values(fighter_strength=5 + effect.amount),
            covers=[Strength],
        )


def _die_rolls_check(ctx: CheckContext, card: CurseCard, effect: DieRolls) -> None:
    # Running from the Enraged Ogre: the modified die must make 5.
    passed = True
    for die, outcome in ((5 - effect.amount, "escaped"), (4 - effect.amount, "caught")):
        if not 1 <= die <= 6:
            continue
        document = _cursed_fight(card, 3)
        document["steps"] += [{"play": RAGE, "by": "Rival", "on": OGRE}, {"resolve": True}]
        document["dice"] = [die, 1, 1]
        passed = (
            ctx.run(f"a die of {die} {outcome}", document, expect_values(outcome=outcome))
            is not None
            and passed
        )
    if passed:
        ctx.covered.add(typing_literal(DieRolls))


def _only_slot_check(ctx: CheckContext, card: CurseCard, effect: OnlySlotBonuses) -> None:
    gear = [*EQUIPMENT, "Validator Gauntlet"]
    counted = _bonus(i for i in gear if ITEM_FACTS[i]["slot"] == effect.slot)
    document = _cursed_fight(card, 5, in_play=gear)
    document["steps"].append({"resolve": True})
    # A "next combat" curse is spent with the fight it counted in.
    spent = effect.duration == "next_combat"
    document["expect"] = {"not_in_play" if spent else "in_play": {"Hero": [card.name]}}
    ctx.run(
        f"only {effect.slot} gives a bonus",
        document,
        expect_values(fighter_strength=5 + counted),
        covers=[OnlySlotBonuses],
    )


LASTING_CHECKS: dict[type[EffectBase], Callable[[CheckContext, CurseCard, Any], None]] = {
    Strength: _next_combat_penalty_check,
    DieRolls: _die_rolls_check,
    OnlySlotBonuses: _only_slot_check,
}
