"""Whole games played by simple bots, with the invariants checked after every move.

The bots are deliberately plain: they fight when they are likely to win, ask for help and
bribe with a share of the Treasure, play enhancers and curses on the leader, sell items for
levels, use Go Up a Level cards and give charity. They exist to exercise every rule and card in
real play, and to measure the engine, not to play well.

Whether a move is legal is the engine's to say (`surely_refused`, a shortcut, is held to it by
tests/engine/test_engine_speed.py), not written again here: a move the bots try
(`tried`: a card, a sale, help, a bribe) is asked of the engine first in a game checked after
every move (legality.refusal: the move's own checks, run up to where it would change the game),
and made at once otherwise (it checks everything before it changes anything: the same game).
A move the bots decided on by their own reasoning (`decided`: the turn's steps, equipment) and
the rules refuse, or one allowed when asked and refused when made, is a bug of the bots: listed
on the game (`Game.bot_refusals`, the simulation's refused bot moves) and skipped, never a
crash.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from validator.engine import abilities, turn
from validator.engine.cards import (
    CHARACTER_KINDS,
    Bribe,
    CardBase,
    ChaseAway,
    CurseCard,
    ExtraCharacterCard,
    LevelCard,
    MayDecline,
    MonsterCard,
    MonsterEnhancerCard,
    OneShotCard,
    RemoveMonster,
)
from validator.engine.combat import offer_help, resolve
from validator.engine.combat_specials import bribe, chase_away, decline, monster_named
from validator.engine.invariants import InvariantViolation, InvariantWatch
from validator.engine.legality import refusal
from validator.engine.state import (
    WINNING_LEVEL,
    CardInstance,
    Combat,
    Game,
    Player,
    RuleViolation,
    effects_of,
    gold_value,
    is_follower,
    is_item,
    is_monster,
    is_one_shot,
    item_bonus,
    levels_for_kill,
)
from validator.engine.strength import (
    holds,
    monsters_strength,
    side_member_strength,
    side_strength,
    side_wins_ties,
    usable_by,
)
from validator.engine.turn import SINGLE_SLOTS


class GameStuck(Exception):
    """A move the turn cannot go on without was refused (listed in `Game.bot_refusals`): the
    game stops there."""


def tried(
    game: Game,
    player: Player,
    what: str,
    card: CardInstance | None,
    move: Callable[..., object],
    *args: Any,
    **kwargs: Any,
) -> bool:
    """Make `move(*args, **kwargs)` if the rules allow it now; False (nothing changed) if they
    do not. In a game checked after every move the engine is asked first (legality.refusal),
    and a move it allowed and then refused all the same is listed as refused; otherwise the
    move is simply made: it checks everything before it changes anything, so the game is the
    same either way, at half the cost of the checks."""
    if game.check_every_move:
        if refusal(game, move, *args, **kwargs) is not None:
            return False
        return _made(game, player, what, card, move, args, kwargs)
    try:
        move(*args, **kwargs)
    except RuleViolation:
        return False
    return True


def decided(
    game: Game,
    player: Player,
    what: str,
    card: CardInstance | None,
    move: Callable[..., object],
    *args: Any,
    **kwargs: Any,
) -> bool:
    """Make a move the bot has found legal by its own reasoning (a turn's steps, an item it may
    use): the move checks everything before it changes anything, so it is made at once rather
    than asked about first. A refusal is a bug of the bots: listed on the game, and nothing
    changed (False)."""
    return _made(game, player, what, card, move, args, kwargs, asked=False)


def _made(
    game: Game,
    player: Player,
    what: str,
    card: CardInstance | None,
    move: Callable[..., object],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    asked: bool = True,
) -> bool:
    try:
        move(*args, **kwargs)
    except RuleViolation as exc:
        # Allowed when asked and refused when made, the trial and the move disagree: the
        # engine's bug (a check after its checks_passed).
        refused(game, player, what, card, f"{exc} (allowed when asked)" if asked else str(exc))
        return False
    return True


def refused(game: Game, player: Player, what: str, card: CardInstance | None, reason: str) -> None:
    """List a bot's move the rules refused on the game (`Game.bot_refusals`)."""
    named = f" {card.name}" if card is not None else ""
    game.bot_refusals.append(f"turn {game.turn_number}, {player.name} {what}{named}: {reason}")


class FightTally(Protocol):
    """Where the bots count the monsters fought and beaten, by name (simulation.Stats)."""

    fought: Counter[str]
    beaten: Counter[str]


def arrange(game: Game, player: Player) -> None:
    """Outside combat: play character cards, attachments, items and followers worth playing."""
    if player.dead or game.combat is not None:
        return
    own_turn = player is game.active_player
    facts = FACTS
    for card in list(player.hand):
        for how in facts[card].ways:
            if how in _ON_OWN_TURN and not own_turn:
                continue
            if how == "level" and player.level >= WINNING_LEVEL - 1:
                break  # a level card is kept for later: no level may win the game
            if how in _REFUSALS_TOLD and surely_refused(game, player, card, how):
                break  # the rules would refuse it and change nothing: not worth wording why
            if how == "character" and player.axis_cards(card.kind):
                break  # a first Race, Class... only: a second would take the first's place
            if how == "follower" and player.followers:
                break  # a first follower only
            tried(game, player, "plays", card, turn.play, game, player, card)
            break
    if own_turn:
        _improve_equipment(game, player)


# What `arrange` may do with a card, in the order it tries: a card is played the first way
# that fits the moment (those in _ON_OWN_TURN only on its holder's own turn).
_ON_OWN_TURN = frozenset({"character", "attachment", "item"})
_ARRANGEMENTS: dict[int, tuple[CardBase, tuple[str, ...]]] = {}


def arrangements(definition: CardBase) -> tuple[str, ...]:
    """The ways `arrange` tries to play the card, in order (the table's bots try the same)."""
    hit = _ARRANGEMENTS.get(id(definition))
    if hit is not None and hit[0] is definition:
        return hit[1]
    kind = definition.kind_name
    ways = tuple(
        how
        for how, fits in (
            ("character", kind in CHARACTER_KINDS),
            ("attachment", bool(effects_of(definition, ExtraCharacterCard))),
            ("follower", kind in ("hireling", "ally", "sidekick")),
            ("item", is_item(definition)),
            ("level", isinstance(definition, LevelCard)),
        )
        if fits
    )
    _ARRANGEMENTS[id(definition)] = (definition, ways)
    return ways


_REFUSALS_TOLD = frozenset({"attachment", "level"})  # the ways surely_refused knows about


def surely_refused(game: Game, player: Player, card: CardInstance, how: str) -> bool:
    """Whether turn.play surely refuses the card, played `how`: the refusals arrange meets
    most (an attachment with no card to attach to, or a second one on its axis; a level card
    before the fight it needs, or for a player it does not fit), told without raising them.
    False says nothing: the move may still be refused, and the refusal is caught."""
    if how == "attachment":
        host = FACTS[card].host
        if host is None:
            return False
        axis, needs_host = host
        if needs_host and not player.axis_cards(axis):
            return True
        return any(
            e.axis == axis
            for a in player.attachments
            for e in a.effects_by_type.get(ExtraCharacterCard, ())
        )
    if how == "level":
        definition = card.card
        assert isinstance(definition, LevelCard)
        if definition.timing == "after_any_combat" and (
            game.combat is not None
            or game.last_combat is None
            or game.last_combat_turn != game.turn_number
        ):
            return True
        return definition.requires is not None and not holds(definition.requires, player, game)
    return False


def _improve_equipment(game: Game, player: Player) -> None:
    """Equip the carried items that help, best first; in a slot that holds one item (a hat, an
    armor...), one that helps more takes the place of a worse one, the worse carried."""
    if not player.carried:
        return
    # A card's `bonus` is item_bonus of its definition, read once when the card was made.
    for item in sorted(player.carried, key=lambda c: -c.bonus):
        if item.bonus <= 0 or not is_item(item.card):
            continue
        if turn.can_equip(game, player, item):  # what turn.equip checks of the item
            decided(game, player, "equips", item, turn.equip, game, player, item)
            continue
        slot = item.slot
        # The swap frees the slot, and the item must be one the player may use (a Wizard's
        # hat is no use to a Dwarf): otherwise nothing changes. The item taken off may be one
        # the player can no longer use (its Class lost), and could not be equipped again.
        if slot not in SINGLE_SLOTS or not usable_by(game, player, item):
            continue
        worse = [
            e
            for e in player.equipped
            if e.slot == slot and e.bonus < item.bonus and e.uid not in player.cheats
        ]
        if worse and decided(
            game, player, "unequips", worse[0], turn.unequip, game, player, worse[0]
        ):
            decided(game, player, "equips", item, turn.equip, game, player, item)


def _sell(game: Game, player: Player) -> None:
    facts = FACTS
    total = 0
    for pile in (player.hand, player.carried):
        for card in pile:
            price = facts[card].price
            if price > 0:
                total += price
    if total < 1000:  # most turns: nothing to sell for a level
        return
    priced = [
        (price, card)
        for pile in (player.hand, player.carried)
        for card in pile
        if (price := facts[card].price) > 0
    ]
    priced.sort(key=lambda pair: pair[0])  # stable: equal prices keep the hand's order
    chosen: list[CardInstance] = []
    value = 0
    for price, card in priced:
        chosen.append(card)
        value += price
        if value >= 1000:
            break
    if player.level + value // 1000 < WINNING_LEVEL:
        tried(game, player, "sells", None, turn.sell, game, player, chosen)


_PRICES: dict[int, tuple[CardBase, int]] = {}


def sale_price(definition: CardBase) -> int:
    """What a card fetches when sold: its Gold if it is an item or a one-shot, else 0."""
    hit = _PRICES.get(id(definition))
    if hit is not None and hit[0] is definition:
        return hit[1]
    sellable = is_item(definition) or isinstance(definition, OneShotCard)
    price = gold_value(definition) if sellable else 0
    _PRICES[id(definition)] = (definition, price)
    return price


def cheapest_sale(player: Player) -> list[CardInstance]:
    """The cheapest handful of items worth a Level, as the simulated bots sell (none: the
    player's cards are not worth one)."""
    priced = sorted(
        ((price, c) for c in (*player.hand, *player.carried) if (price := sale_price(c.card)) > 0),
        key=lambda pair: pair[0],
    )
    chosen: list[CardInstance] = []
    value = 0
    for price, card in priced:
        chosen.append(card)
        value += price
        if value >= 1000:
            return chosen
    return []


class CardFacts:
    """What the bots read of a card again and again, worked out once from its definition."""

    __slots__ = ("boost", "curse", "host", "monster_level", "price", "spoils", "ways")

    def __init__(self, definition: CardBase) -> None:
        self.ways = arrangements(definition)  # the ways arrange tries
        self.price = sale_price(definition)
        self.curse = isinstance(definition, CurseCard)
        # A monster's Level (0 when unknown); None for any other card.
        self.monster_level = (
            (definition.level or 0) if isinstance(definition, MonsterCard) else None
        )
        # A one-shot that makes the player's side stronger (_boost plays them).
        self.boost = isinstance(definition, OneShotCard) and (definition.bonus or 0) > 0
        self.spoils = _strengthens_monsters(definition)  # played on a rival's monster
        # (axis, whether it needs a card there) of a card that turn.play attaches to a
        # character axis (Super Munchkin, Half-Breed); None for any other card.
        self.host: tuple[str, bool] | None = None
        extra = effects_of(definition, ExtraCharacterCard)
        if extra and _played_as_other(definition):
            self.host = (extra[0].axis, extra[0].needs_host)


def _played_as_other(definition: CardBase) -> bool:
    """Whether turn.play plays the card as none of the kinds it tells apart first (curses,
    monster enhancers, levels, character cards, one-shots, items, followers, monsters)."""
    return not (
        isinstance(definition, CurseCard | MonsterEnhancerCard | LevelCard)
        or definition.kind_name in CHARACTER_KINDS
        or is_one_shot(definition)
        or is_item(definition)
        or is_follower(definition)
        or is_monster(definition)
    )


class _FactsByCard(dict[CardInstance, CardFacts]):
    """The facts of each card, by the card itself: a dict keyed by the instance (hashed by
    identity) answers in one lookup, and works a card's facts out the first time it is asked."""

    def __missing__(self, card: CardInstance) -> CardFacts:
        if len(self) >= 100_000:  # instances made for one game only (a check's forced cards)
            self.clear()
        facts = self[card] = CardFacts(card.card)
        return facts


FACTS = _FactsByCard()


def gold_value_of(card: CardInstance) -> int:
    """The card's Gold value, for sorting what to give or sell first."""
    return card.gold  # gold_value of its definition, read once when the card was made


def leader(game: Game, exclude: Player) -> Player | None:
    """The living rival of the highest Level (the first in seat order among equals)."""
    best = None
    for p in game.players:
        if p is not exclude and not p.dead and (best is None or p.level > best.level):
            best = p
    return best


def _curse_the_leader(game: Game, player: Player) -> None:
    target = leader(game, player)
    if target is None or target.level < player.level:
        return
    facts = FACTS
    for card in list(player.hand):
        if facts[card].curse and tried(
            game, player, "curses", card, turn.play, game, player, card, target_player=target
        ):
            check(game)
            return


def check(game: Game) -> None:
    """After every move a bot made: the bots' reckoning of the fight is stale, and (when the
    game checks every move) the invariants must still hold."""
    _RECKONED.pop(id(game), None)
    if not game.check_every_move:
        return
    watch = game.invariant_watch
    if watch is None:
        watch = game.invariant_watch = InvariantWatch()
    problems = watch.check(game)
    if problems:
        raise InvariantViolation("; ".join(problems))


def _fight(game: Game, stats: FightTally) -> None:
    combat = game.combat
    assert combat is not None
    _RECKONED.pop(id(game), None)
    met = {id(monster) for monster in combat.monsters}
    for monster in combat.monsters:
        stats.fought[monster.monster.name] += 1
    fighter = combat.fighter
    _optional_exits(game, combat)
    if game.combat is not combat:
        return
    _interfere(game, combat)
    if game.combat is not combat:
        return
    if not _winning(game, combat):
        _boost(game, combat, fighter)
    if game.combat is combat and not _winning(game, combat):
        _ask_for_help(game, combat)
    if game.combat is combat and not _winning(game, combat):
        _boost(game, combat, fighter)
    if game.combat is not combat:
        return
    # Monsters that joined the fight (Wandering Monster, Mate) were fought too: a monster is
    # never beaten more often than fought.
    for monster in combat.monsters:
        if id(monster) not in met:
            stats.fought[monster.monster.name] += 1
    names = [m.monster.name for m in combat.monsters]
    # The strengths the bots reckoned, when no move came after: resolving them again would
    # give the same numbers.
    known = _RECKONED.get(id(game))
    reckoned = None
    if known is not None and known[0] is game and known[1] is combat:
        reckoned = (known[2], known[3])
    if not decided(game, combat.fighter, "resolves the fight", None, resolve, game, reckoned):
        raise GameStuck("the fight could not be resolved")
    if combat.outcome == "won":
        for name in names:
            stats.beaten[name] += 1
    check(game)


# The bots weigh a fight again and again between two moves; a move is always followed by
# check(), which forgets this reckoning (a refused move changes nothing, so it may stay).
# Kept per game (games may be played in several threads at once), by the game's id with the
# game and the combat themselves, so that a reused id is never mistaken for them.
_RECKONED: dict[int, tuple[Game, Combat, int, int]] = {}


def forget_reckoning(game: Game) -> None:
    """Forget the bots' reckoning of the game's fight: the game is over (or broke down), and
    its id may be given to another."""
    _RECKONED.pop(id(game), None)


def _strengths(game: Game, combat: Combat) -> tuple[int, int]:
    """The side's strength and the monsters', as the bots reckon them now."""
    known = _RECKONED.get(id(game))
    if known is None or known[0] is not game or known[1] is not combat:
        known = (game, combat, side_strength(game, combat), monsters_strength(game, combat))
        _RECKONED[id(game)] = known
    return known[2], known[3]


def _winning(game: Game, combat: Combat) -> bool:
    known = _RECKONED.get(id(game))  # _strengths, without a call when it is known
    if known is None or known[0] is not game or known[1] is not combat:
        ours, theirs = _strengths(game, combat)
    else:
        ours, theirs = known[2], known[3]
    return ours > theirs or (ours == theirs and side_wins_ties(game, combat))


def _optional_exits(game: Game, combat: Combat) -> None:
    fighter = combat.fighter
    if _winning(game, combat):
        return
    # A monster with no card text that allows walking past, chasing away or a bribe (most of
    # them) refuses each at once: such moves are not tried (a refusal changes nothing, so
    # skipping one changes no game), which spares raising and catching the refusals.
    for monster in list(combat.monsters):
        name = monster.monster.name
        try:
            named = monster_named(combat, name).monster  # the monster the moves would pick
        except RuleViolation:
            continue
        for action, allowed_by, what in (
            (decline, MayDecline, "walks past"),
            (chase_away, ChaseAway, "chases away"),
        ):
            if effects_of(named, allowed_by) and tried(
                game, fighter, f"{what} {name}", None, action, game, fighter, name
            ):
                check(game)
                break
        if game.combat is not combat:
            return
    if game.combat is combat and combat.monsters and not _winning(game, combat):
        first = combat.monsters[0].monster
        asks = effects_of(first, Bribe)
        if not asks:
            return
        needed = max(e.min_gold for e in asks)
        for item in sorted(fighter.items, key=gold_value_of):
            if item.gold < needed:
                continue  # refused: worth less than the monster asks
            if tried(
                game,
                fighter,
                f"bribes {first.name} with",
                item,
                bribe,
                game,
                fighter,
                item,
                first.name,
            ):
                check(game)
                return


def _interfere(game: Game, combat: Combat) -> None:
    """Rivals make the leader's fights harder: enhancers, monster-side one-shots, more monsters."""
    fighter = combat.fighter
    top = max(p.level for p in game.players)
    if fighter.level < top and fighter.level < WINNING_LEVEL - 1:
        return  # only the leader's fights are worth spoiling
    for rival in game.others(fighter):
        if rival.dead or game.combat is not combat or not _winning(game, combat):
            continue
        for card in list(rival.hand):
            if FACTS[card].spoils:
                target = combat.monsters[0].monster.name
                made = tried(
                    game, rival, "plays", card, turn.play, game, rival, card, target_monster=target
                )
            elif card.card.name == "Wandering Monster":
                monster = next((c for c in rival.hand if isinstance(c.card, MonsterCard)), None)
                if monster is None:
                    continue
                made = tried(
                    game, rival, "plays", card, turn.play, game, rival, card, with_card=monster
                )
            else:
                continue
            if made:
                check(game)
                break


def _strengthens_monsters(definition: CardBase) -> bool:
    if isinstance(definition, MonsterEnhancerCard):
        return (definition.strength or 0) > 0
    return isinstance(definition, OneShotCard) and (definition.bonus or 0) > 0


def _boost(game: Game, combat: Combat, player: Player) -> None:
    """Play player-side one-shots and abilities while they can turn the fight."""
    ours, theirs = _strengths(game, combat)
    gap = theirs - ours
    facts = FACTS
    available = [c for c in player.hand if facts[c].boost] + [
        c for c in player.carried if facts[c].boost
    ]
    potential = sum(c.bonus for c in available)
    if potential >= gap:
        for card in sorted(available, key=lambda c: -c.bonus):
            if game.combat is not combat or _winning(game, combat):
                break
            if tried(game, player, "plays", card, turn.play, game, player, card):
                check(game)
    for source in list(player.character):
        for ability in getattr(source.card, "abilities", []):
            if game.combat is not combat or _winning(game, combat):
                return
            if ability.timing != "combat" or ability.target != "self":
                continue
            if any(isinstance(e, RemoveMonster) for e in ability.effects):
                continue
            cost = ability.cost
            if cost is None or not (cost.discard_up_to or cost.discard):
                continue
            if (
                ability.when is not None
                and not holds(ability.when, player, game)
                and not player.meta("theft")
            ):
                continue  # use_ability refuses it (Theft aside): not worth wording the refusal
            spare = sorted(
                [c for c in player.hand if not isinstance(c.card, MonsterCard | CurseCard)],
                key=lambda c: (item_bonus(c.card), gold_value_of(c)),
            )
            if not spare:
                continue
            n = min(len(spare), cost.discard_up_to or cost.discard)
            use = abilities.use_ability
            if tried(
                game,
                player,
                "uses",
                source,
                use,
                game,
                player,
                source,
                ability.slug,
                discards=spare[:n],
            ):
                check(game)


def _ask_for_help(game: Game, combat: Combat) -> None:
    fighter = combat.fighter
    # A rival will not help a fight that could win the game for the fighter (asked first: then
    # no one's strength needs reckoning).
    gained = sum(levels_for_kill(m.monster) for m in combat.monsters)
    if fighter.level + gained >= WINNING_LEVEL and not game.options.shared_victory:
        return
    ours, theirs = _strengths(game, combat)
    gap = theirs - ours
    # Only the strongest rival is asked (the first in seat order from the left among equals).
    helper: Player | None = None
    strongest = 0
    for p in game.others(fighter):
        if not p.dead:
            strength = side_member_strength(game, combat, p)
            if helper is None or strength > strongest:
                helper, strongest = p, strength
    if helper is None or strongest < gap:
        return
    treasures = sum(m.monster.treasures or 0 for m in combat.monsters)
    share = max(1, treasures // 2)
    if tried(game, helper, "helps", None, offer_help, game, helper, treasures=share):
        check(game)


def play_turn(game: Game, stats: FightTally) -> None:
    """The active player's whole turn as the bots play it, each move checked; the fights are
    counted in `stats`."""
    player = game.active_player
    arrange(game, player)
    _sell(game, player)
    _curse_the_leader(game, player)
    check(game)
    if not game.can_draw("door"):
        _end_turn(game, player)
        return
    if decided(game, player, "kicks open the door", None, turn.kick_door, game, player):
        check(game)
    if game.combat is not None:
        _fight(game, stats)
    elif game.phase == "kicked" and not game.fought_this_turn and game.winner is None:
        monster = beatable_monster(game, player)
        trouble = turn.look_for_trouble
        if monster is not None and decided(
            game, player, "looks for trouble with", monster, trouble, game, player, monster
        ):
            check(game)
            if game.combat is not None:
                _fight(game, stats)
        elif game.can_draw("treasure" if game.options.faster_play else "door"):
            decided(game, player, "loots the room", None, turn.loot_room, game, player)
    if game.winner is not None:
        return
    arrange(game, player)
    _sell(game, player)
    check(game)
    _end_turn(game, player)
    check(game)


def _end_turn(game: Game, player: Player) -> None:
    if not decided(game, player, "ends the turn", None, turn.end_turn, game):
        raise GameStuck("the turn could not end")


def beatable_monster(game: Game, player: Player) -> CardInstance | None:
    """The lowest monster in the player's hand, of a Level more than 2 below the player's Level
    and gear, to look for trouble with (None: there is none)."""
    strength = player.level
    for item in player.equipped:
        strength += item.bonus  # item_bonus of its definition, read once
    facts = FACTS
    best: CardInstance | None = None
    lowest = 0
    for card in player.hand:
        level = facts[card].monster_level
        if level is not None and level + 2 < strength and (best is None or level < lowest):
            best, lowest = card, level  # the first of the lowest Level, as min() picks
    return best
