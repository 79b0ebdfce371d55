"""Whole games played by simple bots, with the invariants checked after every move.

The bots are deliberately plain: they fight when they are likely to win, ask for help and
bribe with a share of the Treasure, play enhancers and curses on the leader, sell items for
levels, use Go Up a Level cards and give charity. They exist to exercise every rule and card in
real play, and to measure the engine, not to play well.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

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
from validator.engine.choices import DefaultChooser
from validator.engine.combat import offer_help, resolve
from validator.engine.combat_specials import bribe, chase_away, decline, monster_named
from validator.engine.state import (
    WINNING_LEVEL,
    CardInstance,
    Combat,
    Game,
    Options,
    Player,
    RuleViolation,
    big_allowance,
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
)

MAX_TURNS = 600
SINGLE_SLOTS = turn.SINGLE_SLOTS


class InvariantViolation(Exception):
    pass


def build_game(
    cards: Iterable[tuple[str, CardBase]],
    *,
    players: int,
    seed: int,
    options: Options | None = None,
    forced: Sequence[CardBase] = (),
    top_doors: Sequence[CardBase] = (),
    dealt: Sequence[CardBase] = (),
) -> Game:
    """A new game: both decks built with every copy, shuffled by seed, four of each dealt.

    `forced` cards are shuffled in; `top_doors` are put on top of the Door deck after the deal
    (the first doors kicked open) and `dealt` go one to each player's hand, so that the cards a
    check wants to meet are met early in real play."""
    rng = random.Random(seed)
    game = Game(
        players=[Player(f"P{i + 1}", sex="female" if i % 2 else "male") for i in range(players)],
        rng=rng,
        options=options or Options(),
        chooser=DefaultChooser(),
    )
    game.logging = False
    doors, treasures, dealt_roles, uid = _instances(cards)
    game.door_deck.extend(doors)
    game.treasure_deck.extend(treasures)
    roles = list(dealt_roles)
    for card in forced:
        if card.deck is None:
            continue
        uid += 1
        instance = CardInstance(uid, card, "forced")
        (game.door_deck if card.deck == "door" else game.treasure_deck).append(instance)
    _shuffle(rng, game.door_deck)
    _shuffle(rng, game.treasure_deck)
    # SpongeBob: one Role card at random to every player, outside both decks.
    _shuffle(rng, roles)
    for player, role in zip(game.players, roles, strict=False):
        player.character.append(role)
    left_in_box = max(0, len(roles) - players)
    for player in game.players:
        for deck in ("door", "treasure"):
            for _ in range(4):
                if game.can_draw(deck):
                    player.hand.append(game.draw(deck))
    for card in reversed(top_doors):
        uid += 1
        game.door_deck.insert(0, CardInstance(uid, card, "forced"))
    for index, card in enumerate(dealt):
        uid += 1
        game.players[index % players].hand.append(CardInstance(uid, card, "forced"))
    game.total_cards = uid - left_in_box
    for player in game.players:
        arrange(game, player)
    return game


def _shuffle(rng: random.Random, cards: list[CardInstance]) -> None:
    """rng.shuffle(cards), the same draws in the same order (random.Random.shuffle with its
    _randbelow written out): the two decks of every game are shuffled, and a call per card
    for each draw is most of what shuffling costs."""
    if type(rng) is not random.Random:  # a generator of its own may draw otherwise
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(cards))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


# The cards of a run of games, as instances, by the run's tuple of cards: every game of a
# simulation deals the same instances (they are immutable), shuffled by its own seed.
_INSTANCES: dict[int, tuple[Sequence[tuple[str, CardBase]], _Instances]] = {}
_Instances = tuple[list[CardInstance], list[CardInstance], list[CardInstance], int]


def _instances(cards: Iterable[tuple[str, CardBase]]) -> _Instances:
    """(Door deck, Treasure deck, Role cards, the last uid) in a fixed order, so that a seed
    gives the same game whatever the cards' source."""
    hit = _INSTANCES.get(id(cards))
    if hit is not None and hit[0] is cards:
        return hit[1]
    uid = 0
    doors: list[CardInstance] = []
    treasures: list[CardInstance] = []
    roles: list[CardInstance] = []
    for code, card in sorted(cards, key=lambda entry: (entry[0], entry[1].name)):
        if card.kind_name == "role":
            uid += 1
            roles.append(CardInstance(uid, card, code))
            continue
        if card.deck is None:
            continue  # deck unknown
        for _ in range(card.copies or 1):
            uid += 1
            (doors if card.deck == "door" else treasures).append(CardInstance(uid, card, code))
    built = (doors, treasures, roles, uid)
    if isinstance(cards, tuple):  # only an immutable sequence is known to hold the same cards
        if len(_INSTANCES) >= 8:
            _INSTANCES.clear()
        _INSTANCES[id(cards)] = (cards, built)
    return built


# -- invariants ------------------------------------------------------------------------------------


def check_invariants(game: Game) -> list[str]:
    """Every card in exactly one place; levels 1..10; equip limits hold; a winner killed.

    From scratch, whatever happened before (InvariantWatch checks the same after each move,
    looking again only at what the move changed)."""
    problems: list[str] = []
    piles = game.card_piles()
    count = sum(map(len, piles))
    distinct = len(set(chain.from_iterable(piles)))
    if count != distinct or (game.total_cards is not None and count != game.total_cards):
        seen: dict[int, str] = {}
        for place, card in game.all_cards():
            if card.uid in seen:
                problems.append(f"{card.name} is both in {seen[card.uid]} and {place}")
            seen[card.uid] = place
        if game.total_cards is not None and count != game.total_cards:
            problems.append(f"{count} cards on the table, {game.total_cards} in the game")
    for p in game.players:
        if not 1 <= p.level <= WINNING_LEVEL:
            problems.append(f"{p.name} is at Level {p.level}")
        if p.level == WINNING_LEVEL and p not in game.winners:
            problems.append(f"{p.name} reached Level {WINNING_LEVEL} without winning")
        if len(p.equipped) > 1 or len(p.items) > 1:
            problems += _equip_problems(game, p)
    for winner in game.winners:
        if game.win_reason.get(winner.name) not in ("kill", "card", "shared"):
            problems.append(f"{winner.name} won without killing a monster")
    return problems


# What the invariants are about, by region: the decks and discards; each player's Level, hand,
# piles in play, Cheat! cards (by the item they free) and Ship enhancers (by their Ship); the
# combat's cards; the winners. A region is a list, compared with its copy in one C call.
_STANDING = -1  # the last region: the winners, why they won, the number of cards
_HAND = 1  # a player's region: [Level, hand, the piles in play (the equip limits' concern)...]


def _table(game: Game) -> list[list[Any]]:
    table: list[list[Any]] = [
        [game.door_deck, game.treasure_deck, game.door_discard, game.treasure_discard]
    ]
    for p in game.players:
        table.append(
            [
                p.level,
                p.hand,
                p.character,
                p.attachments,
                p.equipped,
                p.carried,
                p.followers,
                p.curses,
                p.next_combat,
                p.cheats,
                p.ship_enhancers,
            ]
        )
    combat = game.combat
    table.append([_combat_cards(combat) if combat is not None else []])
    table.append([game.winners, game.win_reason, game.total_cards])
    return table


def _combat_cards(combat: Combat) -> list[CardInstance]:
    """list(combat.cards()) without a generator's step per card (the same cards, in order)."""
    cards: list[CardInstance] = []
    for m in combat.monsters:
        cards.append(m.card)
        cards += m.enhancers
    for m, _ in combat.removed:
        cards.append(m.card)
        cards += m.enhancers
    for m in combat.slain:
        cards.append(m.card)
        cards += m.enhancers
    cards += [play.card for play in combat.one_shots]
    cards += combat.spent
    return cards


def _copy(entry: Any) -> Any:
    """A copy of a region's entry that later moves leave as it is."""
    if type(entry) is list:
        return entry.copy()
    if type(entry) is dict:
        return {k: v.copy() if type(v) is list else v for k, v in entry.items()}
    return entry  # a Level or a count: immutable


class InvariantWatch:
    """check_invariants after every move, looking again only at what the move changed.

    The watch keeps a copy of the table (_table) as it was at the last check, when the
    invariants held. A region equal to its copy (the same cards in the same order, compared in
    C) is not looked at again. From each pile that changed, the cards that left it and those
    that came into it are gathered (a draw from the top, cards added at the end or taken from
    it are told apart without going through the pile); when the cards that came are the cards
    that left, each card is still in exactly one place and the count is the same. A player
    whose Level changed has it checked again, one whose cards in play changed the equip limits.
    Any problem, a change of winners or of the table's shape sends the check to
    check_invariants, which looks at everything and names the problem, so both report alike."""

    def __init__(self) -> None:
        # Empty until a check from scratch found the invariants holding.
        self.copy: list[list[Any]] = []

    def check(self, game: Game) -> list[str]:
        table = self.copy
        now = _table(game)
        if now == table:
            return []
        if len(now) != len(table) or now[_STANDING] != table[_STANDING]:
            return self._from_scratch(game)
        left: list[CardInstance] = []
        came: list[CardInstance] = []
        players = game.players
        for index in range(len(now) - 1):  # the winners (the last region) are unchanged
            region, copy = now[index], table[index]
            if region == copy:
                continue
            in_play_changed = False
            for slot, entry in enumerate(region):
                before = copy[slot]
                if entry == before:
                    continue
                in_play_changed = in_play_changed or slot > _HAND
                if type(entry) is list:
                    copy[slot] = _moved(before, entry, left, came)
                    continue
                copy[slot] = _copy(entry)
                if type(entry) is dict:  # Cheat! cards, or the lists of Ship enhancers
                    for cards, found in ((before, left), (entry, came)):
                        for held in cards.values():
                            found += held if type(held) is list else [held]
            if not 1 <= index <= len(players):
                continue  # the decks or the combat: only where the cards are
            p = players[index - 1]
            if not 1 <= p.level < WINNING_LEVEL:  # a winner is checked from scratch
                return self._from_scratch(game)
            if (
                in_play_changed
                and (len(p.equipped) > 1 or len(p.items) > 1)
                and _equip_problems(game, p)
            ):
                return self._from_scratch(game)
        if (left or came) and (len(left) != len(came) or set(left) != set(came)):
            return self._from_scratch(game)
        return []

    def _from_scratch(self, game: Game) -> list[str]:
        problems = check_invariants(game)
        # A table that breaks the invariants is no base to compare the next one with.
        self.copy = [[_copy(e) for e in region] for region in _table(game)] if not problems else []
        return problems


def _moved(
    before: list[CardInstance],
    now: list[CardInstance],
    left: list[CardInstance],
    came: list[CardInstance],
) -> list[CardInstance]:
    """Add the cards that left a pile to `left`, those that came to `came` (any other change
    counts as every card leaving and the new ones coming), and return a copy of the pile as it
    is now: `before` (the watch's own copy) brought up to date in place for a draw from the
    top, cards taken from the end or added at the end, so that a deck is neither sliced nor
    copied whole for a draw."""
    had = len(before)
    kept = len(now)
    gone = had - kept
    if gone > 0:
        top = before[:gone]
        del before[:gone]
        if before == now:  # drawn from the top
            left += top
            return before
        before[:0] = top
        end = before[kept:]
        del before[kept:]
        if before == now:  # taken from the end
            left += end
            return before
        before += end
    else:
        before += now[had:]
        if before == now:  # added at the end
            came += now[had:]
            return before
        del before[had:]
    left += before
    came += now
    return now.copy()


def _equip_problems(game: Game, p: Player) -> list[str]:
    problems = []
    headgear = armor = footgear = vehicle = hands = 0
    for item in p.equipped:
        if item.uid in p.cheats:
            continue
        slot = item.slot
        if slot == "one_hand":
            hands += 1
        elif slot == "two_hands":
            hands += 2
        elif slot == "headgear":
            headgear += 1
        elif slot == "armor":
            armor += 1
        elif slot == "footgear":
            footgear += 1
        elif slot == "vehicle":
            vehicle += 1
    for slot, n in (
        ("headgear", headgear),
        ("armor", armor),
        ("footgear", footgear),
        ("vehicle", vehicle),
    ):
        if n > 1:
            problems.append(f"{p.name} has {n} {slot} equipped")
    if hands > 2:
        problems.append(f"{p.name} uses {hands} hands")
    ships = sum(1 for i in p.items if i.slot == "ship" and i.uid not in p.cheats)
    if ships > 1:
        problems.append(f"{p.name} has {ships} Ships")
    bigs = sum(1 for i in p.items if i.big and i.slot != "ship" and i.uid not in p.cheats)
    if bigs > 1 and bigs > big_allowance(p):
        problems.append(f"{p.name} carries {bigs} Big items")
    return problems


# -- bots ------------------------------------------------------------------------------------------


def arrange(game: Game, player: Player) -> None:
    """Outside combat: play character cards, attachments, items and followers worth playing."""
    if player.dead or game.combat is not None:
        return
    own_turn = player is game.active_player
    facts = _FACTS
    for card in list(player.hand):
        for how in facts[card].ways:
            if how in _ON_OWN_TURN and not own_turn:
                continue
            if how == "level" and player.level >= WINNING_LEVEL - 1:
                break  # a level card is kept for later: no level may win the game
            if how in _REFUSALS_TOLD and _refused(game, player, card, how):
                break  # the rules would refuse it and change nothing: not worth wording why
            try:
                if how == "character":
                    if not player.axis_cards(card.kind):
                        turn.play(game, player, card)
                elif how == "follower":
                    if not player.followers:
                        turn.play(game, player, card)
                elif how == "item":
                    _play_item(game, player, card)
                elif how == "level":
                    if player.level < WINNING_LEVEL - 1:
                        turn.play(game, player, card)
                else:
                    turn.play(game, player, card)
            except RuleViolation:
                pass
            break
    if own_turn:
        _improve_equipment(game, player)


# What `arrange` may do with a card, in the order it tries: a card is played the first way
# that fits the moment (those in _ON_OWN_TURN only on its holder's own turn).
_ON_OWN_TURN = frozenset({"character", "attachment", "item"})
_ARRANGEMENTS: dict[int, tuple[CardBase, tuple[str, ...]]] = {}


def _arrangements(definition: CardBase) -> tuple[str, ...]:
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


_REFUSALS_TOLD = frozenset({"attachment", "level"})  # the ways _refused knows about


def _refused(game: Game, player: Player, card: CardInstance, how: str) -> bool:
    """Whether turn.play surely refuses the card, played `how`: the refusals arrange meets
    most (an attachment with no card to attach to, or a second one on its axis; a level card
    before the fight it needs, or for a player it does not fit), told without raising them.
    False says nothing: the move may still be refused, and the refusal is caught."""
    if how == "attachment":
        host = _FACTS[card].host
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


def _play_item(game: Game, player: Player, card: CardInstance) -> None:
    if card.big:  # is_big of its definition, read once when the card was made
        turn.check_can_hold(player, card)
    turn.play(game, player, card)


def _improve_equipment(game: Game, player: Player) -> None:
    if not player.carried:
        return
    # A card's `bonus` is item_bonus of its definition, read once when the card was made.
    for item in sorted(player.carried, key=lambda c: -c.bonus):
        if item.bonus <= 0 or not is_item(item.card):
            continue
        if turn.can_equip(game, player, item):
            turn.equip(game, player, item)
            continue
        slot = item.slot
        worse = [
            e
            for e in player.equipped
            if e.slot == slot and e.bonus < item.bonus and e.uid not in player.cheats
        ]
        if worse and slot in SINGLE_SLOTS:
            turn.unequip(game, player, worse[0])
            if turn.can_equip(game, player, item):
                turn.equip(game, player, item)
            else:
                turn.equip(game, player, worse[0])


def _sell(game: Game, player: Player) -> None:
    facts = _FACTS
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
        with suppress(RuleViolation):
            turn.sell(game, player, chosen)


_PRICES: dict[int, tuple[CardBase, int]] = {}


def _sale_price(definition: CardBase) -> int:
    """What a card fetches when sold: its Gold if it is an item or a one-shot, else 0."""
    hit = _PRICES.get(id(definition))
    if hit is not None and hit[0] is definition:
        return hit[1]
    sellable = is_item(definition) or isinstance(definition, OneShotCard)
    price = gold_value(definition) if sellable else 0
    _PRICES[id(definition)] = (definition, price)
    return price


class _Facts:
    """What the bots read of a card again and again, worked out once from its definition."""

    __slots__ = ("boost", "curse", "host", "monster_level", "price", "spoils", "ways")

    def __init__(self, definition: CardBase) -> None:
        self.ways = _arrangements(definition)  # the ways arrange tries
        self.price = _sale_price(definition)
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


class _FactsByCard(dict[CardInstance, _Facts]):
    """The facts of each card, by the card itself: a dict keyed by the instance (hashed by
    identity) answers in one lookup, and works a card's facts out the first time it is asked."""

    def __missing__(self, card: CardInstance) -> _Facts:
        if len(self) >= 100_000:  # instances made for one game only (a check's forced cards)
            self.clear()
        facts = self[card] = _Facts(card.card)
        return facts


_FACTS = _FactsByCard()


def gold_value_of(card: CardInstance) -> int:
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
    facts = _FACTS
    for card in list(player.hand):
        if facts[card].curse:
            try:
                turn.play(game, player, card, target_player=target)
            except RuleViolation:
                continue
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


def _fight(game: Game, stats: Stats) -> None:
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
    if known is not None and known[0] is game and known[1] is combat:
        outcome = resolve(game, (known[2], known[3]))
    else:
        outcome = resolve(game)
    if outcome == "won":
        for name in names:
            stats.beaten[name] += 1
    check(game)


# The bots weigh a fight again and again between two moves; a move is always followed by
# check(), which forgets this reckoning (a refused move changes nothing, so it may stay).
# Kept per game (games may be played in several threads at once), by the game's id with the
# game and the combat themselves, so that a reused id is never mistaken for them.
_RECKONED: dict[int, tuple[Game, Combat, int, int]] = {}


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
        for action, allowed_by in ((decline, MayDecline), (chase_away, ChaseAway)):
            if not effects_of(named, allowed_by):
                continue
            try:
                action(game, fighter, name)
                check(game)
                break
            except RuleViolation:
                continue
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
            try:
                bribe(game, fighter, item, first.name)
                check(game)
                return
            except RuleViolation:
                continue


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
            definition = card.card
            try:
                if _FACTS[card].spoils:
                    turn.play(game, rival, card, target_monster=combat.monsters[0].monster.name)
                elif definition.name == "Wandering Monster":
                    monster = next((c for c in rival.hand if isinstance(c.card, MonsterCard)), None)
                    if monster is None:
                        continue
                    turn.play(game, rival, card, with_card=monster)
                else:
                    continue
            except RuleViolation:
                continue
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
    facts = _FACTS
    available = [c for c in player.hand if facts[c].boost] + [
        c for c in player.carried if facts[c].boost
    ]
    potential = sum(c.bonus for c in available)
    if potential >= gap:
        for card in sorted(available, key=lambda c: -c.bonus):
            if game.combat is not combat or _winning(game, combat):
                break
            try:
                turn.play(game, player, card)
                check(game)
            except RuleViolation:
                continue
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
            try:
                abilities.use_ability(game, player, source, ability.slug, discards=spare[:n])
                check(game)
            except RuleViolation:
                continue


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
    try:
        offer_help(game, helper, treasures=max(1, treasures // 2))
    except RuleViolation:
        return
    check(game)


def play_turn(game: Game, stats: Stats) -> None:
    player = game.active_player
    arrange(game, player)
    _sell(game, player)
    _curse_the_leader(game, player)
    check(game)
    if not game.can_draw("door"):
        turn.end_turn(game)
        return
    turn.kick_door(game, player)
    check(game)
    if game.combat is not None:
        _fight(game, stats)
    elif game.phase == "kicked" and not game.fought_this_turn and game.winner is None:
        monster = _beatable_monster(game, player)
        if monster is not None:
            turn.look_for_trouble(game, player, monster)
            check(game)
            if game.combat is not None:
                _fight(game, stats)
        elif game.can_draw("treasure" if game.options.faster_play else "door"):
            turn.loot_room(game, player)
    if game.winner is not None:
        return
    arrange(game, player)
    _sell(game, player)
    check(game)
    turn.end_turn(game)
    check(game)


def _beatable_monster(game: Game, player: Player) -> CardInstance | None:
    strength = player.level
    for item in player.equipped:
        strength += item.bonus  # item_bonus of its definition, read once
    facts = _FACTS
    best: CardInstance | None = None
    lowest = 0
    for card in player.hand:
        level = facts[card].monster_level
        if level is not None and level + 2 < strength and (best is None or level < lowest):
            best, lowest = card, level  # the first of the lowest Level, as min() picks
    return best


# -- simulation ---------------------------------------------------------------------------------


@dataclass
class Stats:
    """What a run of games measured. `turns` holds each game's length in turns (every player's
    turn counts one); `levels_per_turn` counts turns by the levels their player gained in them
    (negative when a turn cost levels), the histogram behind a pack's pace."""

    games: int = 0
    players: int = 0
    turns: list[int] = field(default_factory=list)
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    fought: Counter[str] = field(default_factory=Counter)
    beaten: Counter[str] = field(default_factory=Counter)
    levels_per_turn: Counter[int] = field(default_factory=Counter)
    unfinished: int = 0
    invariant_violations: int = 0
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def merge(self, other: Stats) -> None:
        """Add the games of `other`, played after this run's (their lists follow these)."""
        self.games += other.games
        self.turns += other.turns
        self.wins_by_seat.update(other.wins_by_seat)
        self.fought.update(other.fought)
        self.beaten.update(other.beaten)
        self.levels_per_turn.update(other.levels_per_turn)
        self.unfinished += other.unfinished
        self.invariant_violations += other.invariant_violations
        self.violations += other.violations

    def as_json(self) -> dict[str, Any]:
        """The report: JSON types only, keys in a fixed order (histogram keys are strings of
        whole numbers, in numeric order)."""
        lengths = Counter(self.turns)
        turns_played = sum(self.levels_per_turn.values())
        levels_gained = sum(k * n for k, n in self.levels_per_turn.items())
        return {
            "games": self.games,
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "invariant_violations": self.invariant_violations,
            "mean_turns": round(sum(self.turns) / len(self.turns), 2) if self.turns else 0,
            "wins_by_seat": {str(k): self.wins_by_seat[k] for k in sorted(self.wins_by_seat)},
            "unfinished_games": self.unfinished,
            "monsters": {
                name: {"fought": self.fought[name], "beaten": self.beaten[name]}
                for name in sorted(self.fought)
            },
            "violations": self.violations[:20],
            "players": self.players,
            "game_lengths": {str(k): lengths[k] for k in sorted(lengths)},
            "levels_per_turn": {
                str(k): self.levels_per_turn[k] for k in sorted(self.levels_per_turn)
            },
            "mean_levels_per_turn": round(levels_gained / turns_played, 3) if turns_played else 0,
        }


def play_game(game: Game, stats: Stats, max_turns: int = MAX_TURNS) -> None:
    """Play one game to a winner (or the turn limit), checking invariants after every move."""
    turn.begin_turn(game)
    check(game)
    levels_per_turn = stats.levels_per_turn
    while game.winner is None and game.turn_number <= max_turns:
        player = game.active_player
        before = player.level
        play_turn(game, stats)
        levels_per_turn[player.level - before] += 1
    _RECKONED.pop(id(game), None)
    stats.games += 1
    stats.turns.append(game.turn_number)
    if game.winner is None:
        stats.unfinished += 1
    else:
        stats.wins_by_seat[game.players.index(game.winner) + 1] += 1


def simulate(
    cards: Sequence[tuple[str, CardBase]],
    *,
    players: int = 4,
    games: int = 100,
    seed: int = 1,
    options: Options | None = None,
    on_game: Callable[[int], None] | None = None,
    check_every_move: bool = True,
    jobs: int = 1,
) -> Stats:
    """Play seeded games; the same seed gives the same games and the same statistics.

    With check_every_move (the default) the invariants are checked after every move; without,
    only at the end of each game (the engine's own speed, as a pack's user would run it).
    With `jobs` above 1 the games are played in that many processes: each game's seed comes
    from its number alone and the results are merged in game order, so the statistics are the
    same whatever `jobs` is (only the seconds differ). `on_game` is called once per game
    played, in the calling process.
    """
    start = time.perf_counter()
    plan = _GamePlan(tuple(cards), players, seed, options, check_every_move)
    if jobs <= 1 or games <= 1:
        stats = plan.play(range(games), on_game)
    else:
        stats = _simulate_in_processes(plan, games, jobs, on_game)
    stats.seconds = time.perf_counter() - start
    return stats


@dataclass(frozen=True)
class _GamePlan:
    """What every game of a run shares; a game is then its number alone."""

    cards: tuple[tuple[str, CardBase], ...]
    players: int
    seed: int
    options: Options | None
    check_every_move: bool

    def play(self, indexes: Iterable[int], on_game: Callable[[int], None] | None = None) -> Stats:
        stats = Stats(players=self.players)
        for index in indexes:
            game = build_game(
                self.cards,
                players=self.players,
                seed=self.seed * 1_000_003 + index,
                options=self.options,
            )
            game.check_every_move = self.check_every_move
            try:
                play_game(game, stats)
            except InvariantViolation as exc:
                _RECKONED.pop(id(game), None)
                stats.games += 1
                stats.invariant_violations += 1
                stats.violations.append(f"game {index}: {exc}")
            if not self.check_every_move:
                problems = check_invariants(game)
                if problems:
                    stats.invariant_violations += 1
                    stats.violations.append(f"game {index}: {'; '.join(problems)}")
            if on_game is not None:
                on_game(index)
        return stats


# The plan of the run a worker process serves, set once by the pool's initializer so that the
# cards cross to each process once, not with every batch of games.
_WORKER_PLAN: _GamePlan | None = None


def _worker_start(plan: _GamePlan) -> None:
    global _WORKER_PLAN
    _WORKER_PLAN = plan


def _worker_play(first: int, stop: int) -> Stats:
    assert _WORKER_PLAN is not None, "a worker plays only after its pool started it"
    return _WORKER_PLAN.play(range(first, stop))


def _simulate_in_processes(
    plan: _GamePlan, games: int, jobs: int, on_game: Callable[[int], None] | None
) -> Stats:
    # Batches small enough that progress moves and the processes finish together, large
    # enough that handing them out costs little beside a game (a few milliseconds each).
    size = max(1, min(25, games // (jobs * 4)))
    batches = [(first, min(games, first + size)) for first in range(0, games, size)]
    # forkserver, not fork: the caller may be a web process with threads and open sockets.
    # The server imports the engine once; each worker is forked from it ready to play.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    merged = Stats(players=plan.players)
    with ProcessPoolExecutor(
        max_workers=min(jobs, len(batches)),
        mp_context=context,
        initializer=_worker_start,
        initargs=(plan,),
    ) as pool:
        futures = [pool.submit(_worker_play, first, stop) for first, stop in batches]
        for (first, stop), future in zip(batches, futures, strict=True):
            merged.merge(future.result())  # in game order, whatever order they finished
            if on_game is not None:
                for index in range(first, stop):
                    on_game(index)
    return merged
