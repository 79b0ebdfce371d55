"""Whole games played by bots, with the invariants checked after every move.

The bots fight when they are likely to win, ask for help and bribe with a share of the
Treasure, play enhancers and curses on their rivals, sell items for levels, use Go Up a Level
cards and give charity. Each seat's decisions (whom to help, whom to curse and with what, which
fights to spend cards against, what to sell) are its policy's (bot_policy.py: `CLASSIC`, the
plain bots that exercise every rule and card and measure the engine, and `SHREWD`, which plays
to win); this module makes the moves they chose, in a turn's order.

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
from validator.engine.bot_facts import FACTS as FACTS
from validator.engine.bot_facts import (
    RECKONED,
    gold_value_of,
    reckoned,
    strengths,
    winning,
)
from validator.engine.bot_facts import arrangements as arrangements
from validator.engine.bot_facts import cheapest_sale as cheapest_sale
from validator.engine.bot_facts import forget_reckoning as forget_reckoning
from validator.engine.bot_facts import leader as leader
from validator.engine.bot_facts import sale_price as sale_price
from validator.engine.bot_policy import BotPolicy, Play, Seats
from validator.engine.cards import (
    Bribe,
    ChaseAway,
    CurseCard,
    ExtraCharacterCard,
    LevelCard,
    MayDecline,
    MonsterCard,
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
    is_item,
    item_bonus,
)
from validator.engine.strength import holds, usable_by
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


def _sell(game: Game, player: Player, policy: BotPolicy) -> None:
    chosen = policy.sale(game, player)
    if chosen:
        tried(game, player, "sells", None, turn.sell, game, player, chosen)


def _played(game: Game, player: Player, what: str, play: Play) -> bool:
    """Try the card of `play` (turn.play, at its monster, card or player); True if made."""
    options: dict[str, Any] = {}
    if play.monster is not None:
        options["target_monster"] = play.monster
    if play.with_card is not None:
        options["with_card"] = play.with_card
    if play.player is not None:
        options["target_player"] = play.player
    return tried(game, player, what, play.card, turn.play, game, player, play.card, **options)


def _curse(game: Game, player: Player, policy: BotPolicy) -> None:
    """The first of the policy's curses the rules allow (one a turn)."""
    for play in policy.curses(game, player):
        if _played(game, player, "curses", play):
            check(game)
            return


def check(game: Game) -> None:
    """After every move a bot made: the bots' reckoning of the fight is stale, and (when the
    game checks every move) the invariants must still hold."""
    RECKONED.pop(id(game), None)  # forget_reckoning, without a call: the bots call it most
    if not game.check_every_move:
        return
    watch = game.invariant_watch
    if watch is None:
        watch = game.invariant_watch = InvariantWatch()
    problems = watch.check(game)
    if problems:
        raise InvariantViolation("; ".join(problems))


def _fight(game: Game, stats: FightTally, seats: Seats) -> None:
    combat = game.combat
    assert combat is not None
    forget_reckoning(game)
    met = {id(monster) for monster in combat.monsters}
    for monster in combat.monsters:
        stats.fought[monster.monster.name] += 1
    _optional_exits(game, combat)
    if game.combat is not combat:
        return
    meddlers = _interfere(game, combat, seats)
    if game.combat is not combat:
        return
    _answer(game, combat, seats, meddlers)
    if game.combat is combat and seats.late_word:
        # The policies that have a last word spend cards against the fight again, now that
        # the fighter has played theirs; the fighter answers once more.
        late = _interfere(game, combat, seats, late=True)
        if late and game.combat is combat:
            _answer(game, combat, seats, meddlers | late)
    if game.combat is combat:
        _last_resort(game, combat, seats.of(combat.fighter))
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
    known = reckoned(game, combat)
    if not decided(game, combat.fighter, "resolves the fight", None, resolve, game, known):
        raise GameStuck("the fight could not be resolved")
    if combat.outcome == "won":
        for name in names:
            stats.beaten[name] += 1
    check(game)


def _answer(game: Game, combat: Combat, seats: Seats, meddlers: set[str]) -> None:
    """The fighter's side while it loses: the fighter's own cards, help, more cards."""
    fighter = combat.fighter
    policy = seats.of(fighter)
    if not winning(game, combat):
        _boost(game, combat, fighter, policy)
    if game.combat is combat and not winning(game, combat):
        _ask_for_help(game, combat, seats, meddlers)
    if game.combat is combat and not winning(game, combat):
        _boost(game, combat, fighter, policy)


def _last_resort(game: Game, combat: Combat, policy: BotPolicy) -> None:
    """A fight lost all the same: the policy's last cards (a monster taken away, an escape)."""
    fighter = combat.fighter
    for play in policy.last_resort(game, combat, fighter):
        if game.combat is not combat or winning(game, combat):
            return
        if _played(game, fighter, "plays", play):
            check(game)


def _optional_exits(game: Game, combat: Combat) -> None:
    fighter = combat.fighter
    if winning(game, combat):
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
    if game.combat is combat and combat.monsters and not winning(game, combat):
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


def _interfere(game: Game, combat: Combat, seats: Seats, *, late: bool = False) -> set[str]:
    """Rivals make the fight harder, each as its policy says (which fights, which cards, how
    many); `late`: only the policies that have a last word. The names of those who played."""
    fighter = combat.fighter
    meddlers: set[str] = set()
    for rival in game.others(fighter):
        if rival.dead or game.combat is not combat:
            continue
        policy = seats.of(rival)
        if late and not policy.late_word:
            continue
        if not policy.meddles_in(game, rival, combat):  # only while the fighter would win
            continue
        played = 0
        for play in policy.spoilers(game, rival, combat):
            if game.combat is not combat:
                break
            if _played(game, rival, "plays", play):
                check(game)
                played += 1
                if policy.meddled_enough(game, rival, combat, played):
                    break
        if played:
            meddlers.add(rival.name)
    return meddlers


def _boost(game: Game, combat: Combat, player: Player, policy: BotPolicy) -> None:
    """Play the cards that weaken the monsters (as the policy says), player-side one-shots and
    abilities while they can turn the fight."""
    for play in policy.weakening(game, combat, player):
        if game.combat is not combat or winning(game, combat):
            return
        if _played(game, player, "plays", play):
            check(game)
    if game.combat is not combat:
        return
    ours, theirs = strengths(game, combat)
    gap = theirs - ours
    facts = FACTS
    available = [c for c in player.hand if facts[c].boost] + [
        c for c in player.carried if facts[c].boost
    ]
    potential = sum(c.bonus for c in available)
    if potential >= gap:
        for card in policy.boost_order(game, combat, available, gap):
            if game.combat is not combat or winning(game, combat):
                break
            if tried(game, player, "plays", card, turn.play, game, player, card):
                check(game)
    for source in list(player.character):
        for ability in getattr(source.card, "abilities", []):
            if game.combat is not combat or winning(game, combat):
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


def _ask_for_help(game: Game, combat: Combat, seats: Seats, meddlers: set[str]) -> None:
    """The fighter asks as its policy says; the first asked whose policy accepts helps (one
    who played against the fight is told so: `meddlers`, their names)."""
    if combat.helper is not None:
        return
    fighter = combat.fighter
    for helper, share in seats.of(fighter).help_requests(game, combat):
        if not seats.of(helper).wants_to_help(
            game, helper, fighter, share, played_against=helper.name in meddlers
        ):
            continue
        if tried(game, helper, "helps", None, offer_help, game, helper, treasures=share):
            check(game)
        return


def play_turn(game: Game, stats: FightTally, seats: Seats | None = None) -> None:
    """The active player's whole turn as the bots play it, each move checked; the fights are
    counted in `stats`. `seats`: each player's policy (the classic ones by default)."""
    if seats is None:
        seats = Seats(game)
    player = game.active_player
    policy = seats.of(player)
    arrange(game, player)
    _sell(game, player, policy)
    _curse(game, player, policy)
    check(game)
    if not game.can_draw("door"):
        _end_turn(game, player)
        return
    if decided(game, player, "kicks open the door", None, turn.kick_door, game, player):
        check(game)
    if game.combat is not None:
        _fight(game, stats, seats)
    elif game.phase == "kicked" and not game.fought_this_turn and game.winner is None:
        monster = policy.trouble(game, player, beatable_monster(game, player))
        trouble = turn.look_for_trouble
        if monster is not None and decided(
            game, player, "looks for trouble with", monster, trouble, game, player, monster
        ):
            check(game)
            if game.combat is not None:
                _fight(game, stats, seats)
        elif game.can_draw("treasure" if game.options.faster_play else "door"):
            decided(game, player, "loots the room", None, turn.loot_room, game, player)
    if game.winner is not None:
        return
    arrange(game, player)
    _sell(game, player, policy)
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
