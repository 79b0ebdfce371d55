"""The oracle: what an outcome must leave, worked out from the encoding and the rules,
independently of the engine. A `Victim` (with the other players, each a `Seat`) is what the
checks know of a table; `predict` gives every table the outcomes may leave (several when
someone has a choice), by one rule per outcome type (`OUTCOME_RULES`). An outcome with no rule,
or a condition the oracle cannot settle, marks the prediction not exact, and the checks then ask
only that the run stay legal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any

from validator.checks.references import ITEM_FACTS
from validator.engine import (
    CHARACTER_KINDS,
    AllOf,
    AnyOf,
    AxisCondition,
    ChangeCharacterCard,
    ChangeSex,
    Choose,
    ConditionBase,
    Death,
    DiscardHand,
    DiscardOwnCard,
    DrawTreasures,
    EffectBase,
    GainLevels,
    HasInPlay,
    LevelIn,
    LoseCards,
    LoseCharacterCard,
    LoseGoldValue,
    LoseItems,
    LoseLevels,
    MonsterCard,
    NotCondition,
    OthersPayValue,
    OutcomeBase,
    RivalsDiscard,
    RivalsTake,
    Roll,
    SetLevel,
    SexIs,
    StealItem,
    StealLevel,
    TakeFromDiscard,
    Wearing,
)


@dataclass
class Seat:
    """Another player at the table, as far as an outcome can change them."""

    name: str
    level: int = 1
    items: list[str] = field(default_factory=list)
    hand: int = 0
    traits: set[tuple[str, str]] = field(default_factory=set)
    sex: str = "male"
    dead: bool = False  # killed earlier this turn: receives no cards until revived

    def copy(self) -> Seat:
        return Seat(
            self.name,
            self.level,
            list(self.items),
            self.hand,
            set(self.traits),
            self.sex,
            self.dead,
        )


@dataclass
class Victim:
    """What the checks know about a victim and its table, to predict what an outcome leaves."""

    level: int
    items: list[str]
    hand: int  # Treasure cards in hand
    traits: set[tuple[str, str]]
    sex: str = "male"
    dead: bool = False
    exact: bool = True  # False once an outcome's result depends on a choice not modelled
    doors: int = 0  # Door cards in hand
    others: list[Seat] = field(default_factory=lambda: [Seat("Rival")])  # in turn order, left first
    discard: list[tuple[str, str]] = field(default_factory=list)  # character cards, top last
    target: str | None = None  # the player a card that takes from another was played on
    lost_gold: int = 0  # what the items the victim just lost were worth
    # Whether the outcomes predicted so far found something to act on: an outcome's
    # `otherwise` runs when it did not (a roll or a choice acts when its chosen effects do).
    acted: bool = False

    def copy(self) -> Victim:
        return Victim(
            self.level,
            list(self.items),
            self.hand,
            set(self.traits),
            self.sex,
            self.dead,
            self.exact,
            self.doors,
            [s.copy() for s in self.others],
            list(self.discard),
            self.target,
            self.lost_gold,
            self.acted,
        )

    def key(self) -> tuple[Any, ...]:
        others = tuple((s.level, tuple(sorted(s.items)), s.hand) for s in self.others)
        return (
            self.level,
            tuple(sorted(self.items)),
            self.hand,
            self.doors,
            tuple(sorted(self.traits)),
            self.sex,
            self.dead,
            self.exact,
            others,
            tuple(self.discard),
            self.lost_gold,
            self.acted,
        )


def kill_levels(card: MonsterCard) -> int:
    """The levels a kill of this monster gives before its conditional extras: the number its
    card states, or one when it states none (core rules: one level per monster killed unless
    the card says otherwise; the other four sets play by the same rule)."""
    return 1 if card.levels_gained is None else card.levels_gained


def condition_holds(condition: ConditionBase | None, who: Victim | Seat) -> bool | None:
    """Whether the condition holds for this player; None when it cannot be told."""
    if condition is None:
        return True
    if isinstance(condition, AxisCondition):
        return (condition.axis, condition.trait()) in who.traits or (
            condition.axis == "race"
            and condition.trait() == "human"
            and not any(axis == "race" for axis, _ in who.traits)
        )
    if isinstance(condition, SexIs):
        return who.sex == condition.sex
    if isinstance(condition, LevelIn):
        low, high = condition.level.min, condition.level.max
        return (low is None or who.level >= low) and (high is None or who.level <= high)
    if isinstance(condition, NotCondition):
        inner = condition_holds(condition.not_, who)
        return None if inner is None else not inner
    if isinstance(condition, HasInPlay) and condition.has_in_play in CHARACTER_KINDS:
        return any(axis == condition.has_in_play for axis, _ in who.traits)
    if isinstance(condition, Wearing):
        return any(ITEM_FACTS.get(i, {}).get("slot") == condition.wearing for i in who.items)
    if isinstance(condition, AllOf | AnyOf):
        members = condition.all if isinstance(condition, AllOf) else condition.any
        parts = [condition_holds(c, who) for c in members]
        if None in parts:
            return None
        return all(parts) if isinstance(condition, AllOf) else any(parts)
    return None


def predict(effects: Sequence[EffectBase], victim: Victim, die: int) -> list[Victim]:
    """The possible tables after the outcomes (several when someone has a choice); each
    table's `acted` says whether any of these outcomes found something to act on."""
    start = victim.copy()
    start.acted = False
    states = [start]
    for effect in effects:
        if not isinstance(effect, OutcomeBase):
            continue
        found: dict[tuple[Any, ...], Victim] = {}
        for state in states:
            before = state.acted
            for after in [state] if state.dead else _predict_one(effect, state, die):
                after.acted = after.acted or before
                found.setdefault(after.key(), after)
        states = list(found.values())
    return states


# Outcomes that act exactly when the outcomes they choose among do (the others act whenever
# their rule finds something: a rule returns None when it does not).
_ACTING_BY_THEIR_EFFECTS: tuple[type[OutcomeBase], ...] = (Roll, Choose)


def _predict_one(effect: OutcomeBase, state: Victim, die: int) -> list[Victim]:
    """The tables one outcome may leave, each with `acted` for this outcome alone (its
    `otherwise` included)."""
    state = state.copy()
    state.acted = False
    if isinstance(effect, GainLevels) and effect.target == "each_matching_player":
        gained = _gain_each(effect, state)  # `when` picks the players, not the victim
        for s in gained:
            s.acted = True
        return gained
    holds = condition_holds(effect.when, state)
    if holds is None:
        state.exact = False
        return [state]
    rule = OUTCOME_RULES.get(type(effect))
    if rule is None:
        state.exact = False
        return [state]
    after = rule(effect, state.copy(), die) if holds else None
    if after is None:  # the condition failed, or the outcome found nothing to act on
        return predict(effect.otherwise, state, die) if effect.otherwise else [state]
    out: list[Victim] = []
    for s in after:
        if not isinstance(effect, _ACTING_BY_THEIR_EFFECTS):
            s.acted = True
        if not s.acted and effect.otherwise:
            out += predict(effect.otherwise, s, die)  # the chosen effects found nothing
        else:
            out.append(s)
    return out


Outcome = list[Victim] | None  # None: nothing to act on


def _raised(level: int, amount: int, may_win: bool) -> int:
    return max(level, min(10 if may_win else 9, level + amount))


def _lose_levels(effect: LoseLevels, v: Victim, die: int) -> Outcome:
    v.level = max(1, v.level - (die if effect.amount == "roll" else int(effect.amount)))
    return [v]


def _gain_levels(effect: GainLevels, v: Victim, die: int) -> Outcome:
    v.level = _raised(v.level, effect.amount, effect.may_win)
    return [v]


def _gain_each(effect: GainLevels, v: Victim) -> list[Victim]:
    everyone: list[Victim | Seat] = [v, *v.others]
    for who in everyone:
        if who.dead:
            continue  # the dead cannot level up (core rules, Death)
        matches = condition_holds(effect.when, who)
        if matches is None:
            v.exact = False
        elif matches:
            who.level = _raised(who.level, effect.amount, effect.may_win)
    return [v]


def _set_level(effect: SetLevel, v: Victim, die: int) -> Outcome:
    to = effect.to if isinstance(effect.to, int) else min([v.level, *(s.level for s in v.others)])
    v.level = min(v.level, to)
    return [v]


def _death(effect: Death, v: Victim, die: int) -> Outcome:
    body = v.hand + v.doors + len(v.items)
    v.dead, v.items, v.hand, v.doors = True, [], 0, 0
    # Looting the body: one card each, highest Level first (a tie is settled by a die); the
    # dead receive no cards (core rules, Death).
    looters = sorted((s for s in v.others if not s.dead), key=lambda s: -s.level)
    if body >= len(looters):
        for seat in looters:
            seat.hand += 1
        return [v]
    cut = looters[body - 1].level if body else 11
    sure = [s.name for s in looters if s.level > cut]
    tied = [s.name for s in looters if s.level == cut]
    out = []
    for lucky in combinations(tied, body - len(sure)):
        after = v.copy()
        for seat in after.others:
            seat.hand += seat.name in sure or seat.name in lucky
        out.append(after)
    return out


def _discard_hand(effect: DiscardHand, v: Victim, die: int) -> Outcome:
    if not v.hand + v.doors:
        return None
    v.hand = v.doors = 0
    return [v]


def _lose_items(effect: LoseItems, v: Victim, die: int) -> Outcome:
    candidates = [i for i in v.items if item_matches(effect, i)]
    if not candidates:
        return None
    if effect.pick == "biggest_bonus":
        best = max(ITEM_FACTS[i].get("bonus", 0) for i in candidates)
        choices = [[i] for i in candidates if ITEM_FACTS[i].get("bonus", 0) == best]
    elif effect.count == "all" or int(effect.count) >= len(candidates):
        choices = [candidates]
    else:
        choices = [list(c) for c in combinations(candidates, int(effect.count))]
    out = []
    for lost in choices:
        after = _without(v, lost)
        after.lost_gold = sum(item_gold(i) for i in lost)  # for whoever must match it
        out.append(after)
    return out


def _lose_gold_value(effect: LoseGoldValue, v: Victim, die: int) -> Outcome:
    # The victim keeps the most it can: the least Gold that pays, every item when short.
    if not v.items:
        return None
    return [_without(v, p) for p in _payments(v.items, effect.amount)]


def _payments(items: list[str], amount: int) -> list[list[str]]:
    """The ways to give up items worth at least `amount` that keep the most: the least Gold
    that pays (every item, when they are worth less)."""
    if sum(item_gold(i) for i in items) < amount:
        return [list(items)]
    payments = [
        list(c)
        for size in range(1, len(items) + 1)
        for c in combinations(items, size)
        if sum(item_gold(i) for i in c) >= amount
    ]
    least = min(sum(item_gold(i) for i in p) for p in payments)
    return [p for p in payments if sum(item_gold(i) for i in p) == least]


def _others_pay_value(effect: OthersPayValue, v: Victim, die: int) -> Outcome:
    # Each other player pays what the victim's lost items were worth, keeping the most they
    # can; whoever cannot pay gives up every item and goes down.
    if v.lost_gold <= 0:
        return None
    states = [v]
    for index in range(len(v.others)):
        paid: list[Victim] = []
        for state in states:
            payer = state.others[index]
            short = sum(item_gold(i) for i in payer.items) < v.lost_gold
            for payment in _payments(payer.items, v.lost_gold):
                after = state.copy()
                seat = after.others[index]
                for item in payment:
                    seat.items.remove(item)
                seat.level = max(1, seat.level - effect.levels) if short else seat.level
                paid.append(after)
        states = paid
    return states


def _lose_cards(effect: LoseCards, v: Victim, die: int) -> Outcome:
    # Items and hand cards in any mix the victim likes.
    total = v.hand + v.doors + len(v.items)
    if not total:
        return None
    count = min(total, die if effect.count == "roll" else int(effect.count))
    out = []
    for lost_items in range(min(count, len(v.items)) + 1):
        from_hand = count - lost_items
        for items in combinations(v.items, lost_items):
            for treasures in range(max(0, from_hand - v.doors), min(from_hand, v.hand) + 1):
                after = _without(v, list(items))
                after.hand -= treasures
                after.doors -= from_hand - treasures
                out.append(after)
    return out


def _lose_character_card(effect: LoseCharacterCard, v: Victim, die: int) -> Outcome:
    mine = sorted(t for t in v.traits if t[0] == effect.axis)
    if effect.name is not None:
        mine = [t for t in mine if t[1] == effect.name]
    if not mine:
        return None
    count = len(mine) if effect.count == "all" else min(len(mine), int(effect.count))
    out = []
    for lost in combinations(mine, count):
        after = v.copy()
        after.traits -= set(lost)
        after.discard += list(lost)
        out.append(after)
    return out


def _change_character_card(effect: ChangeCharacterCard, v: Victim, die: int) -> Outcome:
    mine = sorted(t for t in v.traits if t[0] == effect.axis)
    if not mine:
        return None
    found = next((c for c in reversed(v.discard) if c[0] == effect.axis), None)
    v.traits -= set(mine)
    v.discard += mine
    if found is not None:
        v.discard.remove(found)
        v.traits.add(found)
    return [v]


def _change_sex(effect: ChangeSex, v: Victim, die: int) -> Outcome:
    v.sex = "female" if v.sex == "male" else "male"
    return [v]


def _roll(effect: Roll, v: Victim, die: int) -> Outcome:
    face = max(1, min(6, die))
    for outcome in effect.outcomes:
        if outcome.min <= face <= outcome.max:
            return predict(outcome.effects, v, face)
    return None


def _choose(effect: Choose, v: Victim, die: int) -> Outcome:
    return [s for option in effect.options for s in predict(option, v, die)]


def _takers(which: str, seats: list[Seat]) -> list[int]:
    """The seats a rivals_take's `takers` (or a rivals_discard's `choosers`) name, in order."""
    order = list(range(len(seats)))
    if which == "left_then_right":
        return order[:1] + order[-1:] if len(order) > 1 else order
    if which == "highest_level":
        top = max(s.level for s in seats)
        return [i for i in order if seats[i].level == top]
    return order if which == "each_other_from_left" else order[::-1]


def _rivals_discard(effect: RivalsDiscard, v: Victim, die: int) -> Outcome:
    # Each living chooser in turn picks `count` of the victim's items, which are discarded:
    # every pick is allowed, and no one's hand grows (nobody keeps them).
    states, acted = [v], False
    for index in _takers(effect.choosers, v.others):
        if v.others[index].dead:
            continue
        for _ in range(effect.count):
            nxt: dict[tuple[Any, ...], Victim] = {}
            for state in states:
                options = [_without(state, [i]) for i in sorted(set(state.items))]
                for option in options:
                    nxt.setdefault(option.key(), option)
                if not options:
                    nxt.setdefault(state.key(), state)
                acted = acted or bool(options)
            states = list(nxt.values())
    return states if acted else None


def _rivals_take(effect: RivalsTake, v: Victim, die: int) -> Outcome:
    # Players tied for the highest Level take in an order the rules leave open: any is allowed.
    takers = _takers(effect.takers, v.others)
    orders = set(permutations(takers)) if effect.takers == "highest_level" else {tuple(takers)}
    out = [s for order in sorted(orders) for s in _take_in_turn(effect, v, order)]
    return out or None


def _take_in_turn(effect: RivalsTake, v: Victim, takers: Sequence[int]) -> list[Victim]:
    # Each taker in turn takes `count` cards of the kind named, while the victim has any;
    # which card is the taker's choice (or chance, unseen from the hand): every one is allowed.
    states, took = [v], False
    for index in takers:
        if v.others[index].dead:
            continue  # the dead receive no cards (core rules, Death)
        for _ in range(effect.count):
            nxt: dict[tuple[Any, ...], Victim] = {}
            for state in states:
                options: list[Victim] = []
                if effect.what in ("item", "treasure"):
                    options += [_without(state, [i]) for i in sorted(set(state.items))]
                if effect.what in ("hand_card", "treasure") and state.hand:
                    options.append(state.copy())
                    options[-1].hand -= 1
                if effect.what == "hand_card" and state.doors:
                    options.append(state.copy())
                    options[-1].doors -= 1
                for option in options:
                    option.others[index].hand += 1
                    nxt.setdefault(option.key(), option)
                if not options:
                    nxt.setdefault(state.key(), state)
                took = took or bool(options)
            states = list(nxt.values())
    return states if took else []


def _steal_item(effect: StealItem, v: Victim, die: int) -> Outcome:
    out = []
    for index, seat in enumerate(v.others):
        if v.target not in (None, seat.name):
            continue
        for item in sorted(set(seat.items)):
            if effect.size is None or (effect.size == "big") == bool(ITEM_FACTS[item].get("big")):
                after = v.copy()
                after.others[index].items.remove(item)
                after.items.append(item)
                out.append(after)
    return out or None


def _steal_level(effect: StealLevel, v: Victim, die: int) -> Outcome:
    out = []
    for index, seat in enumerate(v.others):
        if seat.level > 1 and v.target in (None, seat.name):
            after = v.copy()
            after.others[index].level -= 1
            after.level = _raised(after.level, 1, False)
            out.append(after)
    return out or None


def _draw_treasures(effect: DrawTreasures, v: Victim, die: int) -> Outcome:
    v.hand += effect.count
    return [v]


def _take_from_discard(effect: TakeFromDiscard, v: Victim, die: int) -> Outcome:
    if not v.discard:
        return None  # nothing to take: the outcome finds nothing to act on
    out = []
    for taken in combinations(sorted(set(v.discard)), min(effect.count, len(set(v.discard)))):
        after = v.copy()
        for card in taken:
            after.discard.remove(card)
            after.doors += 1
        out.append(after)
    return out or None


def _discard_card(effect: DiscardOwnCard, v: Victim, die: int) -> Outcome:
    # One card of the victim's own in play, of the kind named: which one is the victim's.
    if effect.owner != "self":
        v.exact = False  # another player's card may go first: not modelled here
        return [v]
    if effect.kind in CHARACTER_KINDS:
        mine = sorted(t for t in v.traits if t[0] == effect.kind)
        if not mine:
            return None
        out = []
        for lost in mine:
            after = v.copy()
            after.traits.discard(lost)
            after.discard.append(lost)
            out.append(after)
        return out
    if effect.kind == "item":
        return [_without(v, [i]) for i in sorted(set(v.items))] or None
    v.exact = False  # followers, curses, any card: not modelled here
    return [v]


OUTCOME_RULES: dict[type[OutcomeBase], Callable[[Any, Victim, int], Outcome]] = {
    LoseLevels: _lose_levels,
    GainLevels: _gain_levels,
    SetLevel: _set_level,
    Death: _death,
    DiscardHand: _discard_hand,
    LoseItems: _lose_items,
    LoseGoldValue: _lose_gold_value,
    LoseCards: _lose_cards,
    LoseCharacterCard: _lose_character_card,
    ChangeCharacterCard: _change_character_card,
    ChangeSex: _change_sex,
    Roll: _roll,
    Choose: _choose,
    RivalsTake: _rivals_take,
    RivalsDiscard: _rivals_discard,
    OthersPayValue: _others_pay_value,
    StealItem: _steal_item,
    StealLevel: _steal_level,
    DrawTreasures: _draw_treasures,
    TakeFromDiscard: _take_from_discard,
    DiscardOwnCard: _discard_card,
}


def _without(victim: Victim, names: Sequence[str]) -> Victim:
    after = victim.copy()
    for name in names:
        after.items.remove(name)
    return after


def item_gold(name: str) -> int:
    """The Gold value of a reference item (0 when it has none)."""
    return int(ITEM_FACTS[name].get("gold", 0))


def item_matches(effect: LoseItems, name: str) -> bool:
    """Whether a lose_items outcome may take this item (its slot, size and tag)."""
    facts = ITEM_FACTS[name]
    if effect.slot is not None and facts.get("slot") != effect.slot:
        return False
    if effect.size == "big" and not facts.get("big"):
        return False
    if effect.size == "small" and facts.get("big"):
        return False
    return effect.tag is None or effect.tag in facts.get("tags", [])


PREDICTED_OUTCOMES = tuple(OUTCOME_RULES)


def items_bonus(items: Iterable[str]) -> int:
    """The combat bonus these reference items add up to."""
    return sum(int(ITEM_FACTS[i].get("bonus", 0)) for i in items)
