"""Evaluating typed conditions against a player (and the fight they are in)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from validator.engine.cards import (
    AllOf,
    AnyOf,
    AxisCondition,
    BonusesUsed,
    ConditionBase,
    HasInPlay,
    HelperPresent,
    LevelIn,
    LevelRank,
    MonsterLevelIn,
    MonsterNamed,
    MonsterTagged,
    NotCondition,
    SexIs,
    UsedTag,
    Wearing,
)

if TYPE_CHECKING:
    from validator.engine.combat import Combat, MonsterInPlay
    from validator.engine.state import Game, Player


def holds(
    condition: ConditionBase,
    player: Player,
    game: Game,
    combat: Combat | None = None,
    monster: MonsterInPlay | None = None,
) -> bool:
    """Whether the condition holds for this player (in this combat, if any). Conditions on the
    monster look at `monster` when given (the one being fled), else at every monster."""
    combat = combat if combat is not None else game.combat
    monsters = [monster] if monster is not None else (combat.monsters if combat else [])
    if isinstance(condition, AxisCondition):
        return player.has_trait(condition.axis, condition.trait())
    if isinstance(condition, SexIs):
        return player.sex == condition.sex
    if isinstance(condition, LevelIn):
        low, high = condition.level.min, condition.level.max
        return (low is None or player.level >= low) and (high is None or player.level <= high)
    if isinstance(condition, LevelRank):
        levels = [p.level for p in game.players]
        target = max(levels) if condition.level_rank == "highest" else min(levels)
        return player.level == target
    if isinstance(condition, Wearing):
        return any(i.slot == condition.wearing for i in player.equipped)
    if isinstance(condition, HasInPlay):
        return any(c.kind == condition.has_in_play for c in player.in_play())
    if isinstance(condition, MonsterTagged):
        return any(condition.monster_tag in m.monster.tags for m in monsters)
    if isinstance(condition, MonsterNamed):
        return any(m.monster.name.casefold() == condition.monster.casefold() for m in monsters)
    if isinstance(condition, MonsterLevelIn):
        low, high = condition.monster_level.min, condition.monster_level.max
        return any(
            (low is None or (m.monster.level or 0) >= low)
            and (high is None or (m.monster.level or 0) <= high)
            for m in monsters
        )
    if isinstance(condition, HelperPresent):
        return combat is not None and (combat.helper is not None) == condition.helper_present
    if isinstance(condition, UsedTag):
        return combat is not None and condition.used_tag in combat.used_tags(game)
    if isinstance(condition, BonusesUsed):
        return combat is not None and combat.bonuses_used(game) == condition.bonuses_used
    if isinstance(condition, AllOf):
        return all(holds(c, player, game, combat, monster) for c in condition.all)
    if isinstance(condition, AnyOf):
        return any(holds(c, player, game, combat, monster) for c in condition.any)
    if isinstance(condition, NotCondition):
        return not holds(condition.not_, player, game, combat, monster)
    raise TypeError(f"no evaluation for condition {type(condition).__name__}")


def axis_of(condition: ConditionBase) -> str | None:
    """The character axis a simple condition tests ("race" for {race: elf}), if any."""
    return condition.axis if isinstance(condition, AxisCondition) else None
