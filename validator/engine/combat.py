"""Combat: strengths, helpers, cards played into a fight, and its resolution.

Strength of the munchkins' side = each member's Level (unless a monster ignores it) + the
bonuses of equipped items they may use + passive card effects + one-shots and abilities used
in this fight + pending "next combat" curses. Strength of the monsters = each monster's Level +
the enhancers on it (a Mate shares its original's) + its bonuses against anyone on the side,
counted once + one-shots played for it. The monsters win ties unless the side wins ties.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from validator.engine.cards import (
    DoubleStrength,
    EffectBase,
    EquippedWithTag,
    ExtraLevels,
    ExtraTreasures,
    ForceHelp,
    HelperLevels,
    IgnoreLevel,
    LevelOnly,
    MonsterCard,
    MonsterEnhancerCard,
    NoHelp,
    OneShotCard,
    OnlySlotBonuses,
    PlayersOnSide,
    Strength,
    WinsTies,
)
from validator.engine.conditions import axis_of, holds
from validator.engine.state import (
    WINNING_LEVEL,
    CardInstance,
    Game,
    Player,
    RuleViolation,
    effects_of,
    item_bonus,
)

if TYPE_CHECKING:
    from validator.engine.runaway import RunResult


@dataclass(eq=False)
class MonsterInPlay:
    """A monster in the fight. A Mate is its own entry that copies `mate_of`."""

    card: CardInstance
    enhancers: list[CardInstance] = field(default_factory=list)
    mate_of: MonsterInPlay | None = None

    @property
    def monster(self) -> MonsterCard:
        source = self.mate_of.card if self.mate_of is not None else self.card
        assert isinstance(source.card, MonsterCard)
        return source.card

    @property
    def all_enhancers(self) -> list[CardInstance]:
        return self.mate_of.all_enhancers if self.mate_of is not None else self.enhancers

    @property
    def name(self) -> str:
        return f"{self.monster.name} (Mate)" if self.mate_of is not None else self.monster.name


@dataclass(eq=False)
class OneShotPlay:
    card: CardInstance
    by: Player
    side: str  # "player" or "monster"
    target: MonsterInPlay | None = None


@dataclass(eq=False)
class Combat:
    fighter: Player
    monsters: list[MonsterInPlay]
    helper: Player | None = None
    helper_treasures: int = 0
    helper_picks_first: bool = False
    one_shots: list[OneShotPlay] = field(default_factory=list)
    # Other cards played into the fight (Wandering Monster, Mate, curses...), discarded after.
    spent: list[CardInstance] = field(default_factory=list)
    ability_bonus: dict[str, int] = field(default_factory=dict)
    runaway_bonus: dict[str, int] = field(default_factory=dict)
    abilities_used: set[tuple[str, str]] = field(default_factory=set)
    # A Level that replaces a player's own in this fight (Power Switch).
    level_override: dict[str, int] = field(default_factory=dict)
    backstabbed: set[tuple[str, str]] = field(default_factory=set)
    # Monsters gone without being killed, with whether their Treasure is still drawn.
    removed: list[tuple[MonsterInPlay, bool]] = field(default_factory=list)
    # Monsters killed outright by a card: they pay out if the side wins the rest of the fight.
    slain: list[MonsterInPlay] = field(default_factory=list)
    loaded_die: dict[str, int] = field(default_factory=dict)
    glued: set[str] = field(default_factory=set)
    # Treasures a monster hands over instead of fighting (Amazon), drawn with the rest.
    extra_treasures: int = 0
    auto_escape: dict[str, int] = field(default_factory=dict)  # player -> monsters covered
    escape_after_fail: set[str] = field(default_factory=set)
    sacrificed: set[str] = field(default_factory=set)
    treasures_drawn: int = 0
    # Treasure is drawn face up when someone helped (everyone sees it), face down otherwise.
    treasures_face_up: bool = False
    outcome: str = "none"
    resolved: bool = False
    last_side_strength: int | None = None
    last_monster_strength: int | None = None

    @property
    def side(self) -> list[Player]:
        return [self.fighter] + ([self.helper] if self.helper is not None else [])

    def cards(self) -> Iterator[CardInstance]:
        for m in self.monsters:
            yield m.card
            yield from m.enhancers
        for m, _ in self.removed:
            yield m.card
            yield from m.enhancers
        for m in self.slain:
            yield m.card
            yield from m.enhancers
        for play in self.one_shots:
            yield play.card
        yield from self.spent

    def monster_effects[E: EffectBase](self, effect_type: type[E]) -> list[E]:
        return [e for m in self.monsters for e in effects_of(m.monster, effect_type)]

    def used_tags(self, game: Game) -> set[str]:
        tags: set[str] = set()
        for p in self.side:
            for item in p.equipped:
                tags.update(item.card.tags)
        for play in self.one_shots:
            if play.side == "player":
                tags.update(play.card.card.tags)
        return tags

    def bonuses_used(self, game: Game) -> bool:
        return any(side_member_strength(game, self, p) != p.level for p in self.side) or any(
            play.side == "player" for play in self.one_shots
        )


# -- strength ------------------------------------------------------------------------------------


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
    level_only = any(effects_of(m.monster, LevelOnly) for m in combat.monsters)
    ignore_level = any(effects_of(m.monster, IgnoreLevel) for m in combat.monsters)
    level = combat.level_override.get(player.name, player.level)
    strength = 0 if ignore_level else level
    if not level_only:
        only_slots = (
            {e.slot for e in _pending(player, OnlySlotBonuses)} if player.next_combat else set()
        )
        for item in player.equipped:
            card = item.card
            if not usable_by(game, player, item):
                continue
            if only_slots and item.slot not in only_slots:
                continue
            strength += item.bonus
            strength += sum(e.bonus for e in player.ship_enhancers.get(item.uid, ()))
            extra = effects_of(card, Strength)
            if extra:
                strength += _strength_effects(game, combat, player, extra)
        for follower in player.followers:
            strength += follower.bonus
        strength += _strength_effects(game, combat, player, player.passive_effects(Strength))
        strength += combat.ability_bonus.get(player.name, 0)
    if player.next_combat:
        strength += sum(
            e.amount
            for e in _pending(player, Strength)
            if e.when is None or holds(e.when, player, game)
        )
    doubled = any(
        p.side == "player" and p.by is player and effects_of(p.card.card, DoubleStrength)
        for p in combat.one_shots
    )
    if doubled and not level_only:
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


def _multiplier(game: Game, combat: Combat, player: Player, effect: Strength) -> int:
    per = effect.per
    if per is None:
        return 1
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
            total += item_bonus(card) if isinstance(card, OneShotCard) else 0
            total += sum(
                e.amount * _multiplier(game, combat, play.by, e)
                for e in effects_of(card, Strength)
                if e.when is None or holds(e.when, play.by, game, combat)
            )
    return total


def _enhanced(monster: MonsterInPlay, base: int, stat: str) -> int:
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
    strength = _enhanced(monster, card.level or 0, "strength")
    for effect in effects_of(card, Strength):
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
    return ours > theirs or (ours == theirs and side_wins_ties(game, combat))


# -- joining the fight ---------------------------------------------------------------------------


def start_combat(game: Game, fighter: Player, monster: CardInstance) -> Combat:
    from validator.engine.combat_specials import on_combat_start

    combat = Combat(fighter=fighter, monsters=[MonsterInPlay(monster)])
    game.combat = combat
    game.fought_this_turn = True
    game.note(f"{fighter.name} fights {monster.name}")
    on_combat_start(game, combat)
    return combat


def offer_help(
    game: Game,
    helper: Player,
    *,
    treasures: int = 0,
    picks_first: bool = False,
    forced: bool = False,
) -> None:
    combat = require_combat(game)
    if combat.resolved:
        raise RuleViolation("the combat is over")
    if helper is combat.fighter:
        raise RuleViolation("the fighter cannot help themselves")
    if combat.helper is not None:
        raise RuleViolation(f"only one player can help, and {combat.helper.name} already does")
    if helper.dead:
        raise RuleViolation(f"{helper.name} is dead and cannot help")
    if combat.monster_effects(NoHelp):
        names = ", ".join(m.name for m in combat.monsters if effects_of(m.monster, NoHelp))
        raise RuleViolation(f"no one may help against {names}: it must be fought alone")
    if treasures < 0:
        raise RuleViolation("a treasure share cannot be negative")
    if forced:
        fighter = combat.fighter
        compels = any(
            usable_by(game, fighter, item) and effects_of(item.card, ForceHelp)
            for item in fighter.equipped
        ) or any(fighter.passive_effects(ForceHelp))
        if not compels:
            raise RuleViolation(f"{fighter.name} has no card that forces another player to help")
        gained = sum(m.monster.levels_gained or 0 for m in combat.monsters)
        if fighter.level + gained >= WINNING_LEVEL:
            raise RuleViolation("no one can be forced to help in a fight for the win")
    combat.helper = helper
    combat.helper_treasures = treasures
    combat.helper_picks_first = picks_first
    game.note(f"{helper.name} helps {combat.fighter.name}")


def require_combat(game: Game) -> Combat:
    if game.combat is None:
        raise RuleViolation("there is no combat going on")
    return game.combat


def remove_monster(game: Game, combat: Combat, monster: MonsterInPlay, *, treasures: bool) -> None:
    """A monster leaves without being killed (no level; Treasure only when the card says so)."""
    combat.monsters.remove(monster)
    combat.removed.append((monster, treasures))
    # A Mate of this monster stays: it keeps copying the original and its enhancers.
    game.note(f"{monster.name} leaves the combat")


# -- the end of a fight --------------------------------------------------------------------------


def resolve(game: Game) -> str:
    """End the combat: the side wins (rewards) or runs away (Bad Stuff). Returns the outcome."""
    combat = require_combat(game)
    if combat.resolved:
        raise RuleViolation("the combat is already resolved")
    combat.last_side_strength = side_strength(game, combat)
    combat.last_monster_strength = monsters_strength(game, combat)
    if not combat.monsters and not combat.slain:
        _collect_removed_treasure(game, combat)
        combat.outcome = "won" if combat.removed else "none"
    elif not combat.monsters or side_is_winning(game, combat):
        _reward(game, combat)
        combat.outcome = "won"
    else:
        from validator.engine.runaway import run_away

        results: list[RunResult] = run_away(game, combat)
        combat.outcome = _outcome_of(results)
    finish(game, combat)
    return combat.outcome


def _outcome_of(results: list[RunResult]) -> str:
    if any(r.dead for r in results):
        return "dead"
    if any(r.caught for r in results):
        return "caught"
    return "escaped"


def _treasure_count(game: Game, combat: Combat, monster: MonsterInPlay) -> int:
    card = monster.monster
    count = _enhanced(monster, card.treasures or 0, "treasures")
    for effect in effects_of(card, ExtraTreasures):
        if effect.when is None or any(holds(effect.when, p, game, combat) for p in combat.side):
            count += effect.amount
    return max(0, count)


def _collect_removed_treasure(game: Game, combat: Combat) -> None:
    count = sum(_treasure_count(game, combat, m) for m, paid in combat.removed if paid)
    _draw_rewards(game, combat, count + combat.extra_treasures)


def _reward(game: Game, combat: Combat) -> None:
    fighter = combat.fighter
    levels = 0
    treasures = 0
    killed_monsters = combat.monsters + combat.slain
    for monster in killed_monsters:
        levels += monster.monster.levels_gained or 0
        for effect in effects_of(monster.monster, ExtraLevels):
            if effect.when is None or holds(effect.when, fighter, game, combat):
                levels += effect.amount
        treasures += _treasure_count(game, combat, monster)
    treasures += sum(_treasure_count(game, combat, m) for m, paid in combat.removed if paid)
    treasures += combat.extra_treasures
    killed = len(killed_monsters)
    game.note(f"{fighter.name} kills {', '.join(m.name for m in killed_monsters)}")
    from validator.engine.badstuff import change_level, declare_winner

    change_level(game, fighter, levels, may_win=True, reason="kill")
    helper = combat.helper
    if helper is not None:
        per_monster = sum(e.amount for e in helper.passive_effects(HelperLevels))
        if per_monster:
            shared = game.options.shared_victory and game.winner is fighter
            change_level(game, helper, per_monster * killed, may_win=shared, reason="shared")
        if game.options.shared_victory and game.winner is fighter:
            declare_winner(game, helper, "shared")
    _draw_rewards(game, combat, treasures)


def _draw_rewards(game: Game, combat: Combat, count: int) -> None:
    from validator.engine.badstuff import receive_drawn

    drawn = []
    for _ in range(count):
        if not game.can_draw("treasure"):
            break
        drawn.append(game.draw("treasure"))
    combat.treasures_drawn = len(drawn)
    combat.treasures_face_up = combat.helper is not None
    face = "face up" if combat.treasures_face_up else "face down"
    game.note(f"{combat.fighter.name} draws {len(drawn)} Treasure(s) {face}")
    share = min(combat.helper_treasures, len(drawn)) if combat.helper is not None else 0
    order = drawn if combat.helper_picks_first else list(reversed(drawn))
    for index, card in enumerate(order):
        receiver = combat.helper if index < share and combat.helper is not None else combat.fighter
        if receiver.dead:
            receiver = combat.fighter
        receive_drawn(game, receiver, card)


def finish(game: Game, combat: Combat) -> None:
    """Discard everything the fight used; pending "next combat" curses are spent."""
    combat.resolved = True
    for monster in combat.monsters:
        game.discard(monster.card)
        game.discard_all(monster.enhancers)
    for monster, _ in combat.removed:
        game.discard(monster.card)
        game.discard_all(monster.enhancers)
    for monster in combat.slain:
        game.discard(monster.card)
        game.discard_all(monster.enhancers)
    game.discard_all(play.card for play in combat.one_shots)
    game.discard_all(combat.spent)
    combat.monsters, combat.removed, combat.slain = [], [], []
    combat.one_shots, combat.spent = [], []
    for player in combat.side:
        game.discard_all(player.next_combat)
        player.next_combat.clear()
    game.combat = None
    game.last_combat = combat
    game.last_combat_turn = game.turn_number
