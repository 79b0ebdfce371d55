"""Conditions and strengths: whether a typed condition holds for a player, and the combat
strength of each side.

One module, because each depends on the other: a strength counts the effects whose conditions
hold, and a condition may ask whether a side won with bonuses (its strength above its Level)."""

from __future__ import annotations

from collections.abc import Iterable

from validator.engine.cards import (
    AllOf,
    AnyOf,
    AxisCondition,
    BonusesUsed,
    ConditionBase,
    DoubleStrength,
    EffectBase,
    EquippedWithTag,
    HasInPlay,
    HelperPresent,
    IgnoreLevel,
    InPlayAnywhere,
    LevelIn,
    LevelOnly,
    LevelRank,
    MonsterEnhancerCard,
    MonsterLevelIn,
    MonsterNamed,
    MonsterTagged,
    NotCondition,
    OnlySlotBonuses,
    PlayersOnSide,
    SexIs,
    Strength,
    UsedTag,
    Wearing,
    WinsTies,
)
from validator.engine.state import (
    CardInstance,
    Combat,
    Game,
    MonsterInPlay,
    Player,
    effects_of,
    item_bonus,
)


def holds(
    condition: ConditionBase,
    player: Player,
    game: Game,
    combat: Combat | None = None,
    monster: MonsterInPlay | None = None,
) -> bool:
    """Whether the condition holds for this player (in this combat, if any). Conditions on the
    monster look at `monster` when given (the one being fled), else at every monster."""
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
    if isinstance(condition, InPlayAnywhere):
        return any(c.kind == condition.in_play_anywhere for p in game.players for c in p.in_play())
    # The fight is looked up only for the conditions about it (most are about the player).
    combat = combat if combat is not None else game.combat
    monsters = [monster] if monster is not None else (combat.monsters if combat else [])
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
        return combat is not None and condition.used_tag in used_tags(game, combat)
    if isinstance(condition, BonusesUsed):
        return combat is not None and bonuses_used(game, combat) == condition.bonuses_used
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


def usable_by(game: Game, player: Player, item: CardInstance) -> bool:
    """Whether the player may use this item now (restrictions, Super Munchkin, Cheat!)."""
    if item.uid in player.cheats:
        return True
    allowed = item.usable_by
    if allowed is not None and not holds(allowed, player, game):
        return False
    forbidden = item.not_usable_by
    if forbidden is not None and holds(forbidden, player, game):
        axis = axis_of(forbidden)
        # With Super Munchkin / Half-Breed on a single card, its drawbacks do not apply.
        return axis is not None and player.super_single(axis)
    return True


def _pending[E: EffectBase](player: Player, effect_type: type[E]) -> list[E]:
    return [e for c in player.next_combat for e in effects_of(c.card, effect_type)]


def side_member_strength(game: Game, combat: Combat, player: Player) -> int:
    # The bots weigh this many times a fight: plain loops, and the rare parts (restricted
    # items, Ship enhancers, one-shots) looked at only when there are any.
    level_only = ignore_level = False
    for m in combat.monsters:
        effects = m.source.effects_by_type  # the monster's effects, by type
        level_only = level_only or LevelOnly in effects
        ignore_level = ignore_level or IgnoreLevel in effects
    level = combat.level_override.get(player.name, player.level)
    strength = 0 if ignore_level else level
    if not level_only:
        only_slots = (
            {e.slot for e in _pending(player, OnlySlotBonuses)} if player.next_combat else set()
        )
        fitted = player.ship_enhancers
        for item in player.equipped:
            restricted = item.usable_by is not None or item.not_usable_by is not None
            if restricted and not usable_by(game, player, item):
                continue
            if only_slots and item.slot not in only_slots:
                continue
            strength += item.bonus
            if fitted:
                strength += sum(e.bonus for e in fitted.get(item.uid, ()))
            extra = item.effects_by_type.get(Strength)
            if extra:
                strength += _strength_effects(game, combat, player, extra)
        for follower in player.followers:
            strength += follower.bonus
        passive = player.passive_effects(Strength)
        if passive:
            strength += _strength_effects(game, combat, player, passive)
        strength += combat.ability_bonus.get(player.name, 0)
    if player.next_combat:
        strength += sum(
            e.amount
            for e in _pending(player, Strength)
            if e.when is None or holds(e.when, player, game)
        )
    if combat.one_shots and not level_only:
        doubled = any(
            p.side == "player" and p.by is player and effects_of(p.card.card, DoubleStrength)
            for p in combat.one_shots
        )
        if doubled:
            strength *= 2
    return strength


def _strength_effects(
    game: Game, combat: Combat, player: Player, effects: Iterable[Strength]
) -> int:
    total = 0
    for effect in effects:
        if effect.duration == "next_combat":
            continue
        if effect.when is not None and not holds(effect.when, player, game, combat):
            continue
        total += effect.amount * _multiplier(game, combat, player, effect)
    return total


def bonus_multiplier(game: Game, combat: Combat, player: Player, effect: Strength) -> int:
    """How many times a bonus counts ("+1 per monster", "+1 per item of its tag"), for the
    log's words; the strength itself counts it in `_multiplier`, whose name the mutation
    tests know."""
    return _multiplier(game, combat, player, effect)


def _multiplier(game: Game, combat: Combat, player: Player, effect: Strength) -> int:
    per = effect.per
    if isinstance(per, PlayersOnSide):
        return sum(1 for p in combat.side if holds(per.players_on_side, p, game, combat))
    if per == "monster":
        return len(combat.monsters)
    if isinstance(per, EquippedWithTag):
        return sum(1 for item in player.equipped if per.equipped_with_tag in item.card.tags)
    return 1


def side_strength(game: Game, combat: Combat) -> int:
    total = sum(side_member_strength(game, combat, p) for p in combat.side)
    if not combat.monster_effects(LevelOnly):
        for play in combat.one_shots:
            if play.side != "player":
                continue
            card = play.card.card
            total += item_bonus(card)  # one-shots only: turn._play_one_shot fills one_shots
            total += sum(
                e.amount * _multiplier(game, combat, play.by, e)
                for e in effects_of(card, Strength)
                if e.when is None or holds(e.when, play.by, game, combat)
            )
    return total


def enhanced_stat(monster: MonsterInPlay, base: int, stat: str) -> int:
    """A monster's level or Treasure with every enhancer on it, within the enhancers' floors."""
    value, floor = base, None
    for enhancer in monster.all_enhancers:
        enh = enhancer.card
        if isinstance(enh, MonsterEnhancerCard):
            value += getattr(enh, stat) or 0
            stat_floor = getattr(enh, f"{stat}_floor")
            if stat_floor is not None:
                floor = max(floor or 0, stat_floor)
    return value if floor is None else max(value, floor)


def monster_strength(game: Game, combat: Combat, monster: MonsterInPlay) -> int:
    card = monster.monster
    strength = enhanced_stat(monster, card.level or 0, "strength")
    for effect in monster.source.effects_by_type.get(Strength, ()):
        if effect.when is None:
            strength += effect.amount
            continue
        axis = axis_of(effect.when)
        matching = [p for p in combat.side if holds(effect.when, p, game, combat)]
        if effect.amount > 0 and axis is not None:
            # Super Munchkin / Half-Breed on one card: monsters get no bonus against it.
            matching = [p for p in matching if not p.super_single(axis)]
        if matching:
            strength += effect.amount  # counts once, however many match
    for play in combat.one_shots:
        if play.side == "monster" and (play.target is None or play.target is monster):
            strength += item_bonus(play.card.card)
    return strength


def monsters_strength(game: Game, combat: Combat) -> int:
    return sum(monster_strength(game, combat, m) for m in combat.monsters)


def side_wins_ties(game: Game, combat: Combat) -> bool:
    return any(any(True for _ in p.passive_effects(WinsTies)) for p in combat.side)


def side_is_winning(game: Game, combat: Combat) -> bool:
    ours, theirs = side_strength(game, combat), monsters_strength(game, combat)
    return side_wins_with(game, combat, ours, theirs)


def side_wins_with(game: Game, combat: Combat, ours: int, theirs: int) -> bool:
    """Whether the side wins with these strengths (for a caller that already reckoned them)."""
    return ours > theirs or (ours == theirs and side_wins_ties(game, combat))


def used_tags(game: Game, combat: Combat) -> set[str]:
    """The tags of what the side used in this fight: its equipped items and its one-shots."""
    tags: set[str] = set()
    for p in combat.side:
        for item in p.equipped:
            tags.update(item.card.tags)
    for play in combat.one_shots:
        if play.side == "player":
            tags.update(play.card.card.tags)
    return tags


def bonuses_used(game: Game, combat: Combat) -> bool:
    """Whether anyone on the side fought with more than their Level (a win "on Level alone"
    is one without)."""
    return any(side_member_strength(game, combat, p) != p.level for p in combat.side) or any(
        play.side == "player" for play in combat.one_shots
    )
