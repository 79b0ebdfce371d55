"""Exercise each card's encoded effect in the rules engine (pure Python, no Django).

For every card, scenarios are generated from its encoding and run through the engine with
seeded dice, the engine's invariants checked after every step. Each scenario states what must
happen, worked out here from the encoding and the rules, independently of the engine:
conditions are tried both ways, Bad Stuff is applied to four kinds of victim (and, when it
reaches other players or the discards, at a table set to show it), items are equipped by
allowed and forbidden characters, enhancers and one-shots are played on a reference monster,
and so on. A card is *verified* only when it is fully encoded, every generated scenario passed,
and every effect type on it has a check that predicts its result: code that merely exists is
never counted. Cards are also met in seeded whole games (`meet_in_games`).

A card document that does not parse, or an engine crash, becomes that card's failure with the
scenario that caused it; the run goes on.
"""

from __future__ import annotations

import json
import re
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, permutations
from typing import Any

import yaml

from validator.engine import (
    CHARACTER_KINDS,
    ENGINE_VERSION,
    Ability,
    AddMonster,
    AllOf,
    AnyOf,
    AutomaticEscape,
    AxisCondition,
    BeforeCombat,
    BonusesUsed,
    Bribe,
    CancelCurse,
    CancelEscape,
    CannotEscape,
    CardBase,
    CardDocumentError,
    CardLibrary,
    CarryItem,
    ChangeCharacterCard,
    ChangeDieRoll,
    ChangeSex,
    CharacterCard,
    ChaseAway,
    Cheat,
    Choose,
    ConditionBase,
    CurseCard,
    CurseImmunity,
    Death,
    DieRolls,
    DiscardHand,
    DoubleStrength,
    DrawFromDiscard,
    DrawTreasures,
    EffectBase,
    EscapeByDiscard,
    ExtraBigItems,
    ExtraCharacterCard,
    ExtraLevels,
    ExtraTreasures,
    FollowerCard,
    ForceHelp,
    GainLevels,
    HandSize,
    HasInPlay,
    HelperPresent,
    IgnoreLevel,
    ItemCard,
    KillMonster,
    LevelCard,
    LevelIn,
    LevelOnly,
    LoseCards,
    LoseCharacterCard,
    LoseGoldValue,
    LoseItems,
    LoseLevels,
    Mate,
    MayDecline,
    MonsterCard,
    MonsterEnhancerCard,
    MonsterLevelIn,
    MonsterNamed,
    MonsterTagged,
    NoHelp,
    NoPursuit,
    NotCondition,
    OnEscape,
    OneShotCard,
    OnlySlotBonuses,
    OtherCard,
    OthersPayValue,
    OutcomeBase,
    PlayersOnSide,
    RefusesCombat,
    RemoveMonster,
    ReplaceMonster,
    RivalsTake,
    Roll,
    RunAway,
    ScenarioDocument,
    ScenarioError,
    SetLevel,
    SexIs,
    StealItem,
    StealLevel,
    Strength,
    TakeFromDiscard,
    TakeItemInCombat,
    TransferCombat,
    UsedTag,
    Wearing,
    WinsTies,
    parse_card,
    render_text,
    run_scenario,
)

CHECKS_VERSION = "9"

# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------


@dataclass
class CardReport:
    set_code: str
    name: str
    kind: str
    encoding: str
    status: str = "pass"  # pass | warn | fail
    verified: bool = False
    messages: list[str] = field(default_factory=list)
    scenarios_run: int = 0
    failing_scenario: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "set": self.set_code,
            "name": self.name,
            "kind": self.kind,
            "encoding": self.encoding,
            "status": self.status,
            "verified": self.verified,
            "messages": self.messages,
            "scenarios_run": self.scenarios_run,
            "failing_scenario": self.failing_scenario,
        }

    def warn(self, message: str) -> None:
        self.messages.append(f"warn: {message}")
        if self.status == "pass":
            self.status = "warn"

    def fail(self, message: str, scenario: dict[str, Any] | None = None) -> None:
        self.messages.append(f"fail: {message}")
        self.status = "fail"
        if scenario is not None and self.failing_scenario is None:
            self.failing_scenario = yaml.safe_dump(scenario, sort_keys=False, width=100)


def check_version() -> str:
    """Reports are kept per (card document, engine version, checks version)."""
    return f"{ENGINE_VERSION}+checks{CHECKS_VERSION}"


# --------------------------------------------------------------------------------------------
# Reference cards: plain, predictable companions for the card under test
# --------------------------------------------------------------------------------------------

_FULL = {"status": "full"}


def _item(name: str, slot: str, bonus: int = 1, gold: int = 200, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "deck": "treasure",
        "kind": "item",
        "slot": slot,
        "bonus": bonus,
        "gold": gold,
        "encoding": _FULL,
        **extra,
    }


def _monster(name: str, level: int, treasures: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "deck": "door",
        "kind": "monster",
        "level": level,
        "treasures": treasures,
        "levels_gained": 1,
        "bad_stuff": [{"type": "lose_levels", "amount": 1}],
        "encoding": _FULL,
        **extra,
    }


REFERENCE_DOCUMENTS: list[dict[str, Any]] = [
    _monster("Validator Ogre", 5, treasures=2),
    {
        "name": "Validator Rage",
        "deck": "door",
        "kind": "monster_enhancer",
        "strength": 100,
        "treasures": 0,
        "encoding": _FULL,
    },
    {
        "name": "Validator Door",
        "deck": "door",
        "kind": "other_door",
        "copies": 2,
        "encoding": _FULL,
    },
    _item("Validator Trinket", "other", bonus=0, gold=0, copies=2),
    _item("Validator Helm", "headgear"),
    _item("Validator Mail", "armor"),
    _item("Validator Boots", "footgear", tags=["below-waist"]),
    _item("Validator Sword", "one_hand"),
    _item("Validator Buckler", "one_hand"),
    _item("Validator Ram", "two_hands", big=True, bonus=2, gold=400),
    _item("Validator Cart", "other", big=True, bonus=1, gold=300),
    _item("Validator Gauntlet", "other", bonus=30, gold=0),
]
# A second monster for the cards that add, swap or remove one: weak, and its Bad Stuff
# differs from the Ogre's so that who caught whom shows.
_IMP = _monster("Validator Imp", 1, bad_stuff=[{"type": "lose_levels", "amount": 2}])
# References only some effects need: added to the library of a card that has one, so that
# every other card's scenarios stay small.
ON_DEMAND: dict[type[EffectBase], list[dict[str, Any]]] = {
    RemoveMonster: [_IMP],
    AddMonster: [_IMP],
    ReplaceMonster: [_IMP],
    Mate: [
        {
            "name": "Validator Vigor",
            "deck": "door",
            "kind": "monster_enhancer",
            "strength": 3,
            "treasures": 1,
            "encoding": _FULL,
        }
    ],
    CancelCurse: [
        {
            "name": "Validator Hex",
            "deck": "door",
            "kind": "curse",
            "effects": [{"type": "strength", "amount": -3, "duration": "next_combat"}],
            "encoding": _FULL,
        }
    ],
    # Refused to a male character, and a second Headgear: what Cheat! must allow.
    Cheat: [_item("Validator Tiara", "headgear", bonus=2, usable_by={"sex": "female"})],
    CurseImmunity: [
        {
            "name": "Validator Jinx",
            "deck": "door",
            "kind": "curse",
            "effects": [{"type": "lose_levels", "amount": 1}],
            "encoding": _FULL,
        }
    ],
    # +1 to Run Away per copy, to bring a harsh Run Away penalty within a die's reach.
    RunAway: [
        _item(
            "Validator Wings", "other", bonus=0, gold=0, effects=[{"type": "runaway", "amount": 1}]
        )
    ],
}
_REFERENCES: list[CardBase] | None = None
_EXTRA: list[CardBase] | None = None


def extra_references() -> list[CardBase]:
    """A hireling, and a race no condition names (to be "not Human")."""
    global _EXTRA
    if _EXTRA is None:
        _EXTRA = [
            parse_card(
                {
                    "name": "Validator Henchman",
                    "deck": "treasure",
                    "kind": "hireling",
                    "encoding": _FULL,
                }
            ),
            parse_card(
                {"name": "Validator Stranger", "deck": "door", "kind": "race", "encoding": _FULL}
            ),
        ]
    return _EXTRA


def references() -> list[CardBase]:
    global _REFERENCES
    if _REFERENCES is None:
        _REFERENCES = [parse_card(d) for d in REFERENCE_DOCUMENTS]
    return _REFERENCES


EQUIPMENT = [
    "Validator Helm",
    "Validator Mail",
    "Validator Boots",
    "Validator Sword",
    "Validator Buckler",
    "Validator Cart",
]
STRANGER = ("race", "validator stranger")


def _title(name: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in name.split(" "))


def _trait_card(axis: str, name: str) -> CardBase:
    return _parsed({"name": _title(name), "deck": "door", "kind": axis, "encoding": _FULL})


def _traits(conditions: Iterable[ConditionBase]) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for condition in conditions:
        for axis, name in condition.mentions():
            if axis not in ("tag", "sex"):
                found.add((axis, name))
    return found


# Companions made for one card only (an item for a tag, a monster for a monster condition,
# cards of a character axis), parsed once each.
_PARSED: dict[str, CardBase] = {}


def _parsed(document: dict[str, Any]) -> CardBase:
    card = _PARSED.get(document["name"])
    if card is None:
        card = _PARSED[document["name"]] = parse_card(document)
    return card


def _token(tag: str) -> str:
    """A plain item carrying one tag (no bonus, no Gold), registered with the item facts."""
    name = f"Validator {_title(tag)} Token"
    ITEM_FACTS.setdefault(name, _item(name, "other", bonus=0, gold=0, tags=[tag]))
    return name


def _axis_card(axis: str, rank: int) -> tuple[str, str]:
    """The rank-th plain card of a character axis, as a trait (axis, name)."""
    return (axis, f"validator {axis} {('one', 'two', 'three')[rank]}")


def _stand_in(condition: ConditionBase) -> str | None:
    """A monster for which a monster condition holds (the named one, or one with the tag)."""
    if isinstance(condition, MonsterNamed):
        return condition.monster
    if isinstance(condition, MonsterTagged):
        return f"Validator {_title(condition.monster_tag)} Monster"
    return None


def _level_cases(condition: MonsterLevelIn) -> list[tuple[int, bool]]:
    """A monster Level inside the range, and one just outside it."""
    low, high = condition.monster_level.min, condition.monster_level.max
    inside = high if high is not None else low or 1
    outside = high + 1 if high is not None else (low or 1) - 1
    return [(inside, True)] + ([(outside, False)] if outside >= 0 else [])


def _level_monster(level: int) -> str:
    return f"Validator Level {level} Monster"


def _leaves(condition: ConditionBase) -> Iterable[ConditionBase]:
    if isinstance(condition, AllOf | AnyOf):
        for part in condition.all if isinstance(condition, AllOf) else condition.any:
            yield from _leaves(part)
    elif isinstance(condition, NotCondition):
        yield from _leaves(condition.not_)
    else:
        yield condition


def _companions(card: CardBase) -> list[CardBase]:
    """What this card's checks need beyond the shared references."""
    documents: list[dict[str, Any]] = []
    tags: list[str] = []
    for condition in card.all_conditions():
        for leaf in _leaves(condition):
            if isinstance(leaf, UsedTag):
                tags.append(leaf.used_tag)
            if isinstance(leaf, MonsterLevelIn):
                levels = [level for level, _ in _level_cases(leaf)]
                documents += [_monster(_level_monster(level), level) for level in levels]
            name = _stand_in(leaf)
            if name is not None:
                tagged = [leaf.monster_tag] if isinstance(leaf, MonsterTagged) else []
                documents.append(_monster(name, 10, tags=tagged))
    axes: set[str] = set()
    for effect in card.all_effects():
        documents += ON_DEMAND.get(type(effect), [])
        if isinstance(effect, EscapeByDiscard):
            tags += effect.tags
        if isinstance(effect, ChangeCharacterCard | ExtraCharacterCard):
            axes.add(effect.axis)
    documents += [ITEM_FACTS[_token(tag)] for tag in tags]
    for axis in sorted(axes):
        decoy = "race" if axis != "race" else "class"
        for trait in [*(_axis_card(axis, rank) for rank in range(3)), _axis_card(decoy, 0)]:
            documents.append(
                {"name": _title(trait[1]), "deck": "door", "kind": trait[0], "encoding": _FULL}
            )
        # A monster with a bonus against the first card: whether a drawback applies shows.
        one = _axis_card(axis, 0)
        documents.append(
            _monster(
                f"Validator {_title(axis)} Hater",
                1,
                effects=[{"type": "strength", "amount": 5, "when": {axis: one[1]}}],
            )
        )
    return [_parsed(d) for d in documents]


# --------------------------------------------------------------------------------------------
# Predicting outcomes from the encoding
# --------------------------------------------------------------------------------------------


@dataclass
class Seat:
    """Another player at the table, as far as an outcome can change them."""

    name: str
    level: int = 1
    items: list[str] = field(default_factory=list)
    hand: int = 0
    traits: set[tuple[str, str]] = field(default_factory=set)
    sex: str = "male"

    def copy(self) -> Seat:
        return Seat(self.name, self.level, list(self.items), self.hand, set(self.traits), self.sex)


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
        )


ITEM_FACTS: dict[str, dict[str, Any]] = {
    d["name"]: d
    for d in [*REFERENCE_DOCUMENTS, *(d for ds in ON_DEMAND.values() for d in ds)]
    if "slot" in d
}


def _holds(condition: ConditionBase | None, who: Victim | Seat) -> bool | None:
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
        inner = _holds(condition.not_, who)
        return None if inner is None else not inner
    if isinstance(condition, HasInPlay) and condition.has_in_play in CHARACTER_KINDS:
        return any(axis == condition.has_in_play for axis, _ in who.traits)
    if isinstance(condition, Wearing):
        return any(ITEM_FACTS.get(i, {}).get("slot") == condition.wearing for i in who.items)
    if isinstance(condition, AllOf | AnyOf):
        members = condition.all if isinstance(condition, AllOf) else condition.any
        parts = [_holds(c, who) for c in members]
        if None in parts:
            return None
        return all(parts) if isinstance(condition, AllOf) else any(parts)
    return None


def predict(effects: Sequence[EffectBase], victim: Victim, die: int) -> list[Victim]:
    """The possible tables after the outcomes (several when someone has a choice)."""
    states = [victim.copy()]
    for effect in effects:
        if not isinstance(effect, OutcomeBase):
            continue
        found: dict[tuple[Any, ...], Victim] = {}
        for state in states:
            for after in [state] if state.dead else _predict_one(effect, state, die):
                found.setdefault(after.key(), after)
        states = list(found.values())
    return states


def _predict_one(effect: OutcomeBase, state: Victim, die: int) -> list[Victim]:
    if isinstance(effect, GainLevels) and effect.target == "each_matching_player":
        return _gain_each(effect, state.copy())  # `when` picks the players, not the victim
    holds = _holds(effect.when, state)
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
    return after


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
        matches = _holds(effect.when, who)
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
    # Looting the body: one card each, highest Level first (a tie is settled by a die).
    looters = sorted(v.others, key=lambda s: -s.level)
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
    candidates = [i for i in v.items if _matches(effect, i)]
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
        after.lost_gold = sum(_gold(i) for i in lost)  # for whoever must match it
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
    if sum(_gold(i) for i in items) < amount:
        return [list(items)]
    payments = [
        list(c)
        for size in range(1, len(items) + 1)
        for c in combinations(items, size)
        if sum(_gold(i) for i in c) >= amount
    ]
    least = min(sum(_gold(i) for i in p) for p in payments)
    return [p for p in payments if sum(_gold(i) for i in p) == least]


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
            short = sum(_gold(i) for i in payer.items) < v.lost_gold
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


def _takers(effect: RivalsTake, seats: list[Seat]) -> list[int]:
    order = list(range(len(seats)))
    if effect.takers == "left_then_right":
        return order[:1] + order[-1:] if len(order) > 1 else order
    if effect.takers == "highest_level":
        top = max(s.level for s in seats)
        return [i for i in order if seats[i].level == top]
    return order if effect.takers == "each_other_from_left" else order[::-1]


def _rivals_take(effect: RivalsTake, v: Victim, die: int) -> Outcome:
    # Players tied for the highest Level take in an order the rules leave open: any is allowed.
    takers = _takers(effect, v.others)
    orders = set(permutations(takers)) if effect.takers == "highest_level" else {tuple(takers)}
    out = [s for order in sorted(orders) for s in _take_in_turn(effect, v, order)]
    return out or None


def _take_in_turn(effect: RivalsTake, v: Victim, takers: Sequence[int]) -> list[Victim]:
    # Each taker in turn takes `count` cards of the kind named, while the victim has any;
    # which card is the taker's choice (or chance, unseen from the hand): every one is allowed.
    states, took = [v], False
    for index in takers:
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
    out = []
    for taken in combinations(sorted(set(v.discard)), min(effect.count, len(set(v.discard)))):
        after = v.copy()
        for card in taken:
            after.discard.remove(card)
            after.doors += 1
        out.append(after)
    return out or None


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
    OthersPayValue: _others_pay_value,
    StealItem: _steal_item,
    StealLevel: _steal_level,
    DrawTreasures: _draw_treasures,
    TakeFromDiscard: _take_from_discard,
}


def _without(victim: Victim, names: Sequence[str]) -> Victim:
    after = victim.copy()
    for name in names:
        after.items.remove(name)
    return after


def _gold(name: str) -> int:
    return int(ITEM_FACTS[name].get("gold", 0))


def _matches(effect: LoseItems, name: str) -> bool:
    facts = ITEM_FACTS[name]
    if effect.slot is not None and facts.get("slot") != effect.slot:
        return False
    if effect.size == "big" and not facts.get("big"):
        return False
    if effect.size == "small" and facts.get("big"):
        return False
    return effect.tag is None or effect.tag in facts.get("tags", [])


PREDICTED_OUTCOMES = tuple(OUTCOME_RULES)

# --------------------------------------------------------------------------------------------
# Running generated scenarios
# --------------------------------------------------------------------------------------------

Accept = Callable[[dict[str, Any]], str | None]


@dataclass
class CheckContext:
    card: CardBase
    set_code: str
    report: CardReport
    library: CardLibrary
    covered: set[str] = field(default_factory=set)

    def run(
        self,
        label: str,
        document: dict[str, Any],
        accept: Accept | None = None,
        covers: Iterable[type[EffectBase] | str] = (),
    ) -> dict[str, Any] | None:
        """Run one generated scenario; a failure (or crash) fails the card, naming it."""
        document = {
            "name": f"{self.card.name}: {label}",
            "sets": list(self.library.sets),
            **document,
        }
        self.report.scenarios_run += 1
        try:
            result = run_scenario(ScenarioDocument.model_validate(document), library=self.library)
        except ScenarioError as exc:
            self.report.fail(f"{label}: the generated scenario is invalid: {exc}", document)
            return None
        except Exception as exc:  # an engine crash is this card's failure; the run goes on
            where = traceback.extract_tb(exc.__traceback__)[-1]
            self.report.fail(
                f"{label}: the engine crashed ({type(exc).__name__}: {exc} at "
                f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno})",
                document,
            )
            return None
        problem = None if result.passed else "; ".join(result.failures)
        if problem is None and accept is not None:
            problem = accept(result.values)
        if problem:
            self.report.fail(f"{label}: {problem}", document)
            return None
        for item in covers:
            self.covered.add(item if isinstance(item, str) else typing_literal(item))
        return result.values


def typing_literal(effect_type: type[EffectBase]) -> str:
    import typing

    return str(typing.get_args(effect_type.model_fields["type"].annotation)[0])


def _player(name: str, level: int = 1, **extra: Any) -> dict[str, Any]:
    return {"name": name, "level": level, **extra}


def _trait_names(traits: Iterable[tuple[str, str]]) -> list[str]:
    return [_title(name) for _, name in traits]


def _conditions(effect: EffectBase) -> Iterable[ConditionBase]:
    for e in _walk([effect]):
        yield from e.conditions()


def _walk(effects: Iterable[EffectBase]) -> list[EffectBase]:
    out: list[EffectBase] = []
    stack = list(effects)
    while stack:
        effect = stack.pop(0)
        out.append(effect)
        stack.extend(effect.children())
    return out


def _kinds(effects: Iterable[EffectBase]) -> list[type[EffectBase] | str]:
    return [typing_literal(type(e)) for e in _walk(effects)]


def _predictable(effect: EffectBase) -> bool:
    return all(isinstance(e, PREDICTED_OUTCOMES) for e in _walk([effect]))


def _table_matches(start: Victim, states: list[Victim], caught: bool = False) -> Accept:
    """The victim and every other player end as one of the predicted tables."""
    known = {name for _, name in start.traits | set(start.discard)}

    def expected(state: Victim) -> tuple[Any, ...]:
        everyone = [("Hero", state.level), *((s.name, s.level) for s in state.others)]
        return (
            state.level,
            state.dead,
            sorted(state.items),
            state.hand + state.doors,
            sorted(name for _, name in state.traits if name in known),
            [(s.name, s.level, s.hand, sorted(s.items)) for s in state.others],
            sorted(name for name, level in everyone if level >= 10)[:1],
        )

    def actual(values: dict[str, Any]) -> tuple[Any, ...]:
        def items(name: str) -> list[str]:
            return sorted(i for i in values["in_play"][name] if i in ITEM_FACTS)

        return (
            values["levels"]["Hero"],
            "Hero" in values["dead"],
            items("Hero"),
            values["hand_sizes"]["Hero"],
            sorted(n.casefold() for n in values["in_play"]["Hero"] if n.casefold() in known),
            [
                (s.name, values["levels"][s.name], values["hand_sizes"][s.name], items(s.name))
                for s in start.others
            ],
            [values["winner"]] if values["winner"] else [],
        )

    def describe(view: tuple[Any, ...]) -> str:
        level, dead, items, hand, traits, others, winner = view
        text = f"Level {level}{', dead' if dead else ''}, items {items}, {hand} in hand"
        text += f", {traits}" if traits else ""
        for name, other_level, other_hand, other_items in others:
            text += f"; {name} Level {other_level}, {other_hand} in hand, items {other_items}"
        return text + (f"; {winner[0]} wins" if winner else "")

    def accept(values: dict[str, Any]) -> str | None:
        if caught and values["outcome"] not in ("caught", "dead"):
            return f"expected to be caught, outcome {values['outcome']}"
        if any(not s.exact for s in states):
            return None  # part of it is not predicted: the run itself must stay legal
        got = actual(values)
        if any(expected(s) == got for s in states):
            return None
        more = f" (or {len(states) - 1} other choices)" if len(states) > 1 else ""
        return f"expected {describe(expected(states[0]))}{more}; got {describe(got)}"

    return accept


def expect_values(**wanted: Any) -> Accept:
    def accept(values: dict[str, Any]) -> str | None:
        for key, value in wanted.items():
            actual = values.get(key)
            if isinstance(value, dict):
                for sub_key, sub_value in value.items():
                    if actual is None or actual.get(sub_key) != sub_value:
                        return (
                            f"{key}.{sub_key}: expected {sub_value}, got "
                            f"{None if actual is None else actual.get(sub_key)}"
                        )
            elif actual != value:
                return f"{key}: expected {value}, got {actual}"
        return None

    return accept


def _caught(values: dict[str, Any]) -> str | None:
    return None if values["outcome"] in ("caught", "dead") else f"outcome {values['outcome']}"


def _ended_without_kill(level: int, treasures: int, hand: int | None = None) -> Accept:
    """A monster got rid of without a kill: the fight is over and still "won" (the rules call
    it winning), but no level is gained; Treasure only as the card says."""
    wanted: dict[str, Any] = {
        "outcome": "won",
        "levels": {"Hero": level},
        "treasures_drawn": treasures,
    }
    if hand is not None:
        wanted["hand_sizes"] = {"Hero": hand}
    return expect_values(**wanted)


# --------------------------------------------------------------------------------------------
# Arranging a fight so that a condition holds, or fails
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fight:
    """What the Hero brings to a fight: traits, sex, tagged items, a helper, bonuses."""

    traits: frozenset[tuple[str, str]] = frozenset()
    banned: frozenset[tuple[str, str]] = frozenset()
    sex: str | None = None
    tags: frozenset[str] = frozenset()
    no_tags: frozenset[str] = frozenset()
    helper: bool | None = None
    bonuses: bool | None = None

    def hero(self, level: int, gear: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
        tokens = [_token(tag) for tag in sorted(self.tags)]
        in_play = _trait_names(sorted(self.traits)) + list(gear) + tokens
        return _player("Hero", level, in_play=in_play, sex=self.sex or "male", **extra)


def _arrange(condition: ConditionBase, want: bool, fight: Fight | None = None) -> Fight | None:
    """A fight in which the condition holds (or fails, `want` False); None if none can be set."""
    fight = fight or Fight()
    if isinstance(condition, NotCondition):
        return _arrange(condition.not_, not want, fight)
    if isinstance(condition, AllOf | AnyOf):
        parts = condition.all if isinstance(condition, AllOf) else condition.any
        if want == isinstance(condition, AllOf):  # every part must go the same way
            arranged: Fight | None = fight
            for part in parts:
                arranged = _arrange(part, want, arranged) if arranged else None
            return arranged
        return next((f for f in (_arrange(p, want, fight) for p in parts) if f), None)
    if isinstance(condition, AxisCondition):
        trait = (condition.axis, condition.trait())
        if trait in (fight.banned if want else fight.traits):
            return None
        if want:
            return replace(fight, traits=fight.traits | {trait})
        return replace(fight, banned=fight.banned | {trait})
    if isinstance(condition, UsedTag):
        tag = condition.used_tag
        if tag in (fight.no_tags if want else fight.tags):
            return None
        if want:
            return replace(fight, tags=fight.tags | {tag})
        return replace(fight, no_tags=fight.no_tags | {tag})
    settings: dict[str, Any] = {}
    if isinstance(condition, SexIs):
        settings["sex"] = condition.sex if want else {"male": "female"}.get(condition.sex, "male")
    elif isinstance(condition, BonusesUsed):
        settings["bonuses"] = condition.bonuses_used == want
    elif isinstance(condition, HelperPresent):
        settings["helper"] = condition.helper_present == want
    else:
        return None
    ((key, value),) = settings.items()
    if getattr(fight, key) not in (None, value):
        return None
    return replace(fight, **settings)


def _fight_holds(condition: ConditionBase, fight: Fight, level: int) -> bool | None:
    """Whether the condition holds for the Hero in a fully arranged fight."""
    if isinstance(condition, NotCondition):
        inner = _fight_holds(condition.not_, fight, level)
        return None if inner is None else not inner
    if isinstance(condition, AllOf | AnyOf):
        parts = condition.all if isinstance(condition, AllOf) else condition.any
        results = [_fight_holds(p, fight, level) for p in parts]
        if None in results:
            return None
        return all(results) if isinstance(condition, AllOf) else any(results)
    if isinstance(condition, UsedTag):
        return condition.used_tag in fight.tags
    if isinstance(condition, BonusesUsed):
        return bool(fight.bonuses) == condition.bonuses_used
    if isinstance(condition, HelperPresent):
        return bool(fight.helper) == condition.helper_present
    return _holds(condition, Victim(level, [], 0, set(fight.traits), fight.sex or "male"))


# --------------------------------------------------------------------------------------------
# Checks by kind
# --------------------------------------------------------------------------------------------

OGRE = "Validator Ogre"
IMP = "Validator Imp"
RAGE = "Validator Rage"


def _bonus(items: Iterable[str]) -> int:
    return sum(int(ITEM_FACTS[i].get("bonus", 0)) for i in items)


def _pursued_level(card: MonsterCard) -> int:
    """A Level the monster pursues."""
    return min(9, max([e.max_level + 1 for e in card.effects if isinstance(e, NoPursuit)] + [6]))


def _monster_checks(ctx: CheckContext, card: MonsterCard) -> None:
    name = card.name
    # A plain character (Level 1, male, Human, nothing in play) meets some conditions too
    # ("+4 against males", "+5 against anyone with no Class").
    plain_seat = Seat("Hero")
    holding = [_holds(e.when, plain_seat) for e in card.effects if isinstance(e, Strength)]
    base = (card.level or 0) + sum(
        e.amount
        for e in card.effects
        if isinstance(e, Strength) and (e.when is None or _holds(e.when, plain_seat) is True)
    )
    plain = _player("Hero", 1)
    if None in holding:
        ctx.report.warn("a strength condition cannot be predicted for a plain character")
    else:
        ctx.run(
            "strength against a plain character",
            {
                "players": [plain, _player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [name]},
            },
            expect_values(monster_strength=base),
            covers=["monster"],
        )
    # Conditions tried both ways: the bonus applies with the trait, and only then.
    for effect in card.effects:
        if isinstance(effect, Strength) and effect.when is not None:
            traits = _traits([effect.when])
            if len(traits) != 1 or not isinstance(effect.when, AxisCondition):
                continue
            with_trait = _player("Hero", 1, in_play=_trait_names(traits))
            ctx.run(
                f"{effect.amount:+d} with the trait",
                {
                    "players": [with_trait, _player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [name]},
                },
                expect_values(monster_strength=base + effect.amount),
            )
            ctx.run(
                f"{effect.amount:+d} not without it",
                {
                    "players": [plain, _player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [name]},
                },
                expect_values(monster_strength=base),
                covers=[Strength],
            )
    _kill_checks(ctx, card)
    for effect in card.effects:
        check = MONSTER_EFFECT_CHECKS.get(type(effect))
        if check is not None:
            check(ctx, card, effect)
    _runaway_checks(ctx, card, base)
    _bad_stuff_checks(ctx, card)


def _kill_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """Killing it pays its levels and Treasure, plus each extra whose condition holds: every
    conditional extra is tried with its condition holding and failing."""
    level_only = any(isinstance(e, LevelOnly) for e in card.effects)
    ignore_level = any(isinstance(e, IgnoreLevel) for e in card.effects)
    covers: list[type[EffectBase] | str] = ["kill"]
    covers += ["level_only"] if level_only else []
    covers += [IgnoreLevel] if ignore_level else []
    extras = [e for e in card.effects if isinstance(e, ExtraLevels | ExtraTreasures)]
    covers += [type(e) for e in extras if e.when is None]
    results: dict[str, bool] = {}
    _kill_run(ctx, card, Fight(), "killing it pays levels and Treasure", covers, results)
    for extra in extras:
        if extra.when is None:
            continue
        passed = True
        for want in (True, False):
            fight = _arrange(extra.when, want)
            what = "levels" if isinstance(extra, ExtraLevels) else "Treasures"
            label = f"the extra {what} when its condition {'holds' if want else 'fails'}"
            passed = (
                fight is not None and _kill_run(ctx, card, fight, label, [], results) and passed
            )
        if passed:
            ctx.covered.add(typing_literal(type(extra)))


def _kill_run(
    ctx: CheckContext,
    card: MonsterCard,
    fight: Fight,
    label: str,
    covers: list[type[EffectBase] | str],
    results: dict[str, bool],
) -> bool:
    level_only = any(isinstance(e, LevelOnly) for e in card.effects)
    ignore_level = any(isinstance(e, IgnoreLevel) for e in card.effects)
    bonuses = (not level_only) if fight.bonuses is None else fight.bonuses
    fight = replace(fight, bonuses=bonuses, helper=bool(fight.helper))
    if bonuses and level_only:
        return False  # bonuses count for nothing here: a win "with bonuses" cannot be staged
    refusals = [e for e in card.effects if isinstance(e, RefusesCombat)]
    if any(e.when is None or _fight_holds(e.when, fight, 1) is not False for e in refusals):
        return False  # it will not fight this Hero
    conditions = [e.when for e in card.effects if isinstance(e, Strength) and e.when]
    if any(_fight_holds(c, fight, 1) is None for c in conditions):
        return False  # a bonus whose condition the checks cannot settle
    strength = (card.level or 0) + sum(
        e.amount
        for e in card.effects
        if isinstance(e, Strength) and (e.when is None or _fight_holds(e.when, fight, 1))
    )
    helper = 1 if fight.helper and not ignore_level else 0
    gear = ["Validator Gauntlet"] if bonuses else []
    tolls = [e for e in card.effects if isinstance(e, BeforeCombat)]
    if tolls:
        gear.append("Validator Trinket")  # something cheap to give up before the fight
    level = 1 if bonuses else strength + 1 - helper
    if ignore_level and not bonuses:
        level = 0
    if not 1 <= level <= 9:
        ctx.report.warn(f"cannot stage a kill ({label}) with the Level and bonuses it allows")
        return False
    hero = Victim(level, gear, 0, set(fight.traits), fight.sex or "male")
    paid = [
        o for t in tolls if t.when is None or _fight_holds(t.when, fight, level) for o in t.effects
    ]
    # The Hero gives up what costs the fight least.
    best = max(predict(paid, hero, 3), key=lambda s: (_bonus(s.items), s.level, len(s.items)))
    side = (0 if ignore_level else best.level) + helper + (0 if level_only else _bonus(best.items))
    if side <= strength:
        ctx.report.warn(f"cannot stage a kill ({label}): {side} against {strength}")
        return False

    gained = (card.levels_gained or 0) + sum(
        e.amount
        for e in card.effects
        if isinstance(e, ExtraLevels)
        and (e.when is None or _fight_holds(e.when, fight, best.level))
    )
    treasures = _monster_treasures(card, fight, best.level)
    document = {
        "players": [fight.hero(level, gear), _player("Rival")],
        "combat": {"fighter": "Hero", "monsters": [card.name]},
        "steps": [*([{"help": "Rival"}] if fight.helper else []), {"resolve": True}],
    }
    key = json.dumps(document, sort_keys=True)
    if key not in results:  # a fight arranged the same way for two conditions runs once
        results[key] = (
            ctx.run(
                label,
                document,
                expect_values(
                    outcome="won",
                    fighter_strength=side,
                    treasures_drawn=treasures,
                    levels={"Hero": min(10, best.level + gained)},
                ),
                covers=covers,
            )
            is not None
        )
    return results[key]


def _monster_treasures(card: MonsterCard, fight: Fight, level: int) -> int:
    return (card.treasures or 0) + sum(
        e.amount
        for e in card.effects
        if isinstance(e, ExtraTreasures) and (e.when is None or _fight_holds(e.when, fight, level))
    )


def _refusal_check(ctx: CheckContext, card: MonsterCard, effect: RefusesCombat) -> None:
    refused = Fight() if effect.when is None else _arrange(effect.when, True)
    if refused is None:
        return
    # Trading Treasure cards in leaves the hand as large as before.
    hand = ["Validator Trinket"] * effect.trade_treasures
    passed = ctx.run(
        "it will not fight a character it refuses",
        {
            "players": [refused.hero(1, hand=hand), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
        },
        _ended_without_kill(1, effect.treasures, hand=len(hand) + effect.treasures),
    )
    if passed is None:
        return
    fought = None if effect.when is None else _arrange(effect.when, False)
    if fought is None or (fought.hero(1) == Fight().hero(1) and "kill" in ctx.covered):
        # It refuses everyone, or the plain kill already showed that it fights anyone else.
        ctx.covered.add(typing_literal(RefusesCombat))
        return
    ctx.run(
        "it fights anyone else",
        {
            "players": [fought.hero(1), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
        },
        expect_values(outcome="none", treasures_drawn=0),
        covers=[RefusesCombat],
    )


def _decline_check(ctx: CheckContext, card: MonsterCard, effect: MayDecline) -> None:
    fight = {"fighter": "Hero", "monsters": [card.name]}
    steps = [{"decline": card.name, "by": "Hero"}]
    free = Fight() if effect.unless is None else _arrange(effect.unless, False)
    if free is None:
        return
    passed = ctx.run(
        "walking past it: no fight, no reward",
        {"players": [free.hero(1), _player("Rival")], "combat": fight, "steps": steps},
        _ended_without_kill(1, 0),
        covers=[MayDecline] if effect.unless is None else [],
    )
    bound = _arrange(effect.unless, True) if effect.unless is not None else None
    if bound is not None and passed is not None:
        ctx.run(
            "who must fight it cannot walk past",
            {
                "players": [bound.hero(1), _player("Rival")],
                "combat": fight,
                "steps": steps,
                "expect": {"error": True, "outcome": "none"},
            },
            covers=[MayDecline],
        )


def _chase_check(ctx: CheckContext, card: MonsterCard, effect: ChaseAway) -> None:
    able, unable = _arrange(effect.by, True), _arrange(effect.by, False)
    if able is None or unable is None:
        return
    fight = {"fighter": "Hero", "monsters": [card.name]}
    steps = [{"chase": card.name, "by": "Hero"}]
    treasures = _monster_treasures(card, able, 1) if effect.treasures else 0
    passed = ctx.run(
        "driven off by whom the card names",
        {"players": [able.hero(1), _player("Rival")], "combat": fight, "steps": steps},
        _ended_without_kill(1, treasures),
    )
    if passed is not None:
        ctx.run(
            "no one else can drive it off",
            {
                "players": [unable.hero(1), _player("Rival")],
                "combat": fight,
                "steps": steps,
                "expect": {"error": True, "outcome": "none"},
            },
            covers=[ChaseAway],
        )


def _bribe_check(ctx: CheckContext, card: MonsterCard, effect: Bribe) -> None:
    offers = ["Validator Trinket", "Validator Helm", "Validator Ram"]  # 0, 200 and 400 Gold
    enough = next((i for i in offers if _gold(i) >= effect.min_gold), None)
    short = next((i for i in reversed(offers) if _gold(i) < effect.min_gold), None)
    if enough is None:
        ctx.report.warn(f"no reference item is worth the {effect.min_gold} Gold of the bribe")
        return
    fight = {"fighter": "Hero", "monsters": [card.name]}
    passed = ctx.run(
        f"bribed with an item worth {_gold(enough)}",
        {
            "players": [_player("Hero", 1, in_play=[enough]), _player("Rival")],
            "combat": fight,
            "steps": [{"bribe": enough, "by": "Hero"}],
            "expect": {"not_in_play": {"Hero": [enough]}},
        },
        _ended_without_kill(1, 0),
        covers=[Bribe] if short is None else [],
    )
    if short is not None and passed is not None:
        ctx.run(
            f"an item worth {_gold(short)} is refused",
            {
                "players": [_player("Hero", 1, in_play=[short]), _player("Rival")],
                "combat": fight,
                "steps": [{"bribe": short, "by": "Hero"}],
                "expect": {"error": True, "outcome": "none", "in_play": {"Hero": [short]}},
            },
            covers=[Bribe],
        )


def _no_help_check(ctx: CheckContext, card: MonsterCard, effect: NoHelp) -> None:
    ignore_level = any(isinstance(e, IgnoreLevel) for e in card.effects)
    ctx.run(
        "no one may help against it",
        {
            "players": [_player("Hero", 1), _player("Rival", 3)],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"help": "Rival"}],
            "expect": {"error": True},
        },
        expect_values(fighter_strength=0 if ignore_level else 1),
        covers=[NoHelp],
    )


def _escape_by_discard_check(ctx: CheckContext, card: MonsterCard, effect: EscapeByDiscard) -> None:
    level = _pursued_level(card)
    passed = True
    for tag in effect.tags:
        token = _token(tag)
        passed = (
            ctx.run(
                f"thrown a {tag} item, it lets you go",
                {
                    "players": [
                        _player("Hero", level, in_play=[token]),
                        _player("Rival", 1, hand=[RAGE]),
                    ],
                    "combat": {"fighter": "Hero", "monsters": [card.name]},
                    "steps": [{"play": RAGE, "by": "Rival", "on": card.name}, {"resolve": True}],
                    "dice": [1, 1, 1],
                    "expect": {"not_in_play": {"Hero": [token]}},
                },
                expect_values(outcome="escaped"),
            )
            is not None
            and passed
        )
    if passed:
        ctx.covered.add(typing_literal(EscapeByDiscard))


MONSTER_EFFECT_CHECKS: dict[type[EffectBase], Callable[[CheckContext, MonsterCard, Any], None]] = {
    RefusesCombat: _refusal_check,
    MayDecline: _decline_check,
    ChaseAway: _chase_check,
    Bribe: _bribe_check,
    NoHelp: _no_help_check,
    EscapeByDiscard: _escape_by_discard_check,
}


def _runaway_checks(ctx: CheckContext, card: MonsterCard, base: int) -> None:
    name = card.name
    fight = {"fighter": "Hero", "monsters": [name]}
    steps = [{"play": RAGE, "by": "Rival", "on": name}, {"resolve": True}]
    rival = _player("Rival", 1, hand=[RAGE])
    if any(isinstance(e, AutomaticEscape) and e.when is None for e in card.effects):
        ctx.run(
            "escape is automatic",
            {"players": [_player("Hero", 6), rival], "combat": fight, "steps": steps, "dice": [1]},
            expect_values(outcome="escaped"),
            covers=[AutomaticEscape],
        )
        return
    if any(isinstance(e, CannotEscape) for e in card.effects):
        ctx.run(
            "no one outruns it",
            {
                "players": [_player("Hero", 6), rival],
                "combat": fight,
                "steps": steps,
                "dice": [6, 6, 6],
            },
            _caught,
            covers=[CannotEscape],
        )
        return
    modifier = sum(e.amount for e in card.effects if isinstance(e, RunAway))
    pursuit = [e for e in card.effects if isinstance(e, NoPursuit)]
    level = _pursued_level(card)
    # Wings (+1 each) bring a penalty beyond a die's reach back to a roll of 6.
    wings = ["Validator Wings"] * max(0, 5 - modifier - 6)
    needed = 5 - modifier - len(wings)
    runner = _player("Hero", level, in_play=wings)
    if 1 <= needed <= 6:
        ctx.run(
            f"a roll of {needed} escapes ({modifier:+d})",
            {
                "players": [runner, rival],
                "combat": fight,
                "steps": steps,
                "dice": [needed, 1, 1, 1],
            },
            expect_values(outcome="escaped"),
            covers=[RunAway] if modifier else [],
        )
    if 2 <= needed <= 7:
        ctx.run(
            f"a roll of {needed - 1} is caught",
            {
                "players": [runner, rival],
                "combat": fight,
                "steps": steps,
                "dice": [needed - 1, 1, 1, 1],
            },
            _caught,
        )
    for effect in pursuit:
        if effect.unless is None:
            ctx.run(
                f"it does not pursue Level {effect.max_level}",
                {
                    "players": [_player("Hero", effect.max_level), rival],
                    "combat": fight,
                    "steps": steps,
                    "dice": [1, 1, 1],
                },
                expect_values(outcome="escaped"),
                covers=[NoPursuit],
            )
        else:
            traits = _traits([effect.unless])
            ctx.run(
                f"it does not pursue Level {effect.max_level}, unless...",
                {
                    "players": [_player("Hero", effect.max_level), rival],
                    "combat": fight,
                    "steps": steps,
                    "dice": [1, 1, 1],
                },
                expect_values(outcome="escaped"),
            )
            if len(traits) == 1:
                ctx.run(
                    "...the exception is pursued",
                    {
                        "players": [
                            _player("Hero", effect.max_level, in_play=_trait_names(traits)),
                            rival,
                        ],
                        "combat": fight,
                        "steps": steps,
                        "dice": [1, 1, 1],
                    },
                    _caught,
                    covers=[NoPursuit],
                )
    for cost in card.effects:
        if isinstance(cost, OnEscape) and all(_predictable(e) for e in cost.effects):
            _escape_cost_check(ctx, card, cost, level)


def _escape_cost_check(ctx: CheckContext, card: MonsterCard, cost: OnEscape, level: int) -> None:
    """A cost paid even on escape, tried at a Level where its condition holds and, if it has
    one, at a Level where it fails."""
    levels = [level]
    if isinstance(cost.when, LevelIn):
        low, high = cost.when.level.min, cost.when.level.max
        outside = low - 1 if low is not None and low > 1 else (high or 9) + 1
        levels.append(outside)
    elif cost.when is not None:
        return
    passed = True
    for runner in levels:
        if not 1 <= runner <= 9:
            continue
        victim = Victim(runner, [], 0, set())
        holds = _holds(cost.when, victim)
        expected = predict(cost.effects, victim, 6) if holds else [victim]
        passed = (
            ctx.run(
                f"running at Level {runner} {'costs' if holds else 'costs nothing'} even on escape",
                {
                    "players": [_player("Hero", runner), _player("Rival", 1, hand=[RAGE])],
                    "combat": {"fighter": "Hero", "monsters": [card.name]},
                    "steps": [{"play": RAGE, "by": "Rival", "on": card.name}, {"resolve": True}],
                    "dice": [6, 6, 6],
                },
                expect_values(outcome="escaped", levels={"Hero": expected[0].level}),
            )
            is not None
            and passed
        )
    if passed:
        ctx.covered.update([typing_literal(OnEscape), *map(str, _kinds(cost.effects))])


VICTIMS = {
    "fully equipped": (5, EQUIPMENT, 3),
    "with nothing": (5, [], 0),
    "at Level 1": (1, ["Validator Helm", "Validator Sword"], 2),
    "at Level 9": (9, ["Validator Mail", "Validator Boots", "Validator Cart"], 1),
}
# Outcomes whose result depends on the rest of the table: predicted on the tables of
# `_table_runs`, not on the plain victims.
TABLE_OUTCOMES = (RivalsTake, ChangeCharacterCard, OthersPayValue)

Predictor = Callable[[Victim, int], list[Victim]]
# (players, steps before the outcome, die) -> the scenario that delivers it to the Hero
Delivery = Callable[[list[dict[str, Any]], list[dict[str, Any]], int], dict[str, Any]]


def _bad_stuff_delivery(card: MonsterCard) -> Delivery:
    def deliver(
        players: list[dict[str, Any]], before: list[dict[str, Any]], die: int
    ) -> dict[str, Any]:
        hero = {**players[0], "hand": [RAGE, *players[0].get("hand", [])]}
        return {
            "players": [hero, *players[1:]],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [*before, {"play": RAGE, "by": "Hero", "on": card.name}, {"resolve": True}],
            "dice": [1, die, die, die],
        }

    return deliver


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


def _victim_runs(
    ctx: CheckContext,
    outcomes: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    pursued: int,
    dice: Sequence[int],
    label: str,
    covers: list[type[EffectBase] | str],
) -> None:
    """The outcomes on four kinds of victim (with and without the traits they name), then on
    the tables that show what they do to the other players."""
    traits = _traits(c for e in outcomes for c in _conditions(e))
    trait_sets: list[set[tuple[str, str]]] = [set()] + ([traits] if traits else [])
    for kind, (level, items, hand) in VICTIMS.items():
        if level < pursued:
            continue  # not pursued: nothing to see
        for trait_set in trait_sets:
            for die in dice:
                victim = Victim(level, list(items), hand, set(trait_set))
                hero = _player(
                    "Hero",
                    level,
                    in_play=_trait_names(trait_set) + list(items),
                    hand=["Validator Trinket"] * hand,
                )
                suffix = f" ({', '.join(n for _, n in trait_set)})" if trait_set else ""
                ctx.run(
                    f"{label} on a victim {kind}{suffix}, die {die}",
                    deliver([hero, _player("Rival")], [], die),
                    _table_matches(victim, predictor(victim, die), caught),
                    covers=covers,
                )
    if pursued <= 9:
        _table_runs(ctx, outcomes, predictor, deliver, caught=caught, level=max(pursued, 6))


def _table_runs(
    ctx: CheckContext,
    outcomes: Sequence[EffectBase],
    predictor: Predictor,
    deliver: Delivery,
    *,
    caught: bool,
    level: int,
) -> None:
    walked = _walk(outcomes)
    covers = _kinds(outcomes) if all(_predictable(e) for e in outcomes) else []
    if any(isinstance(e, RivalsTake) for e in walked):
        # Five players: the neighbours, the highest Levels (two, tied) and the first two each
        # way round are different pairs; two items, two hand cards, three Treasures can go.
        seats = [Seat("Left", 2), Seat("Second", 5), Seat("Third", 5), Seat("Right", 3)]
        items = ["Validator Helm", "Validator Sword"]
        victim = Victim(level, items, 1, set(), doors=1, others=seats)
        hero = _player("Hero", level, in_play=items, hand=["Validator Trinket", "Validator Door"])
        ctx.run(
            "the other players take their share around a table of five",
            deliver([hero, *(_player(s.name, s.level) for s in seats)], [], 3),
            _table_matches(victim, predictor(victim, 3), caught),
            covers=covers,
        )
    if any(isinstance(e, OthersPayValue) for e in walked):
        # The victim's only item is the 300 Gold Cart: the Rival can pay that, Third cannot.
        seats = [
            Seat("Rival", 5, ["Validator Helm", "Validator Sword", "Validator Ram"]),
            Seat("Third", 4, ["Validator Trinket"]),
        ]
        victim = Victim(level, ["Validator Cart"], 0, set(), others=seats)
        players = [_player("Hero", level, in_play=["Validator Cart"])]
        players += [_player(s.name, s.level, in_play=s.items) for s in seats]
        ctx.run(
            "the other players must pay as much",
            deliver(players, [], 3),
            _table_matches(victim, predictor(victim, 3), caught),
            covers=covers,
        )
    for axis in sorted({e.axis for e in walked if isinstance(e, ChangeCharacterCard)}):
        one, two, three = (_axis_card(axis, rank) for rank in range(3))
        decoy = _axis_card("race" if axis != "race" else "class", 0)
        # Going down the Door discards: the decoy (another axis), then two, then three.
        seeded = Victim(level, [], 0, {one}, others=[Seat("Rival"), Seat("Third")])
        seeded.discard = [three, two, decoy]
        players = [
            _player("Hero", level, in_play=_trait_names([one])),
            _player("Rival", in_play=_trait_names([two, decoy])),
            _player("Third", in_play=_trait_names([three])),
        ]
        before = [
            {"discard_card": _title(three[1]), "by": "Third"},
            {"discard_card": _title(two[1]), "by": "Rival"},
            {"discard_card": _title(decoy[1]), "by": "Rival"},
        ]
        passed = ctx.run(
            f"the first {axis} going down the Door discards replaces yours",
            deliver(players, before, 3),
            _table_matches(seeded, predictor(seeded, 3), caught),
        )
        bare = Victim(level, [], 0, {one})
        if passed is not None:
            ctx.run(
                f"with no {axis} in the Door discards, yours is lost",
                deliver([players[0], _player("Rival")], [], 3),
                _table_matches(bare, predictor(bare, 3), caught),
                covers=covers,
            )


def _bad_stuff_checks(ctx: CheckContext, card: MonsterCard) -> None:
    effects = list(card.bad_stuff)
    if not effects:
        return
    if not all(_predictable(e) for e in effects):
        names = sorted({typing_literal(type(e)) for e in effects if not _predictable(e)})
        ctx.report.warn(f"Bad Stuff ({', '.join(names)}) is run but its result is not predicted")
    before = [o for e in card.effects if isinstance(e, BeforeCombat) for o in e.effects]
    costs = [e for e in card.effects if isinstance(e, OnEscape)]

    def predictor(victim: Victim, die: int) -> list[Victim]:
        states = predict(before + effects, victim, die)
        paid = [o for c in costs if _holds(c.when, victim) for o in c.effects]
        return [s for state in states for s in predict(paid, state, die)]

    escape_rules = [e for e in card.effects if isinstance(e, AutomaticEscape | NoPursuit)]
    pursued = 1 + max((getattr(e, "max_level", 99) for e in escape_rules), default=0)
    dice = sorted({o.min for e in _walk(effects) if isinstance(e, Roll) for o in e.outcomes})
    shown = [e for e in _walk(before + effects) if not isinstance(e, TABLE_OUTCOMES)]
    covers: list[type[EffectBase] | str] = ["bad_stuff"]
    if all(_predictable(e) for e in before + effects):
        covers += _kinds(shown) + ([BeforeCombat] if before else [])
    _victim_runs(
        ctx,
        effects,
        predictor,
        _bad_stuff_delivery(card),
        caught=True,
        pursued=pursued,
        dice=dice or [3],
        label="Bad Stuff",
        covers=covers,
    )


def _item_checks(ctx: CheckContext, card: ItemCard) -> None:
    name = card.name
    allowed_traits = _traits([card.usable_by]) if card.usable_by else set()
    forbidden_traits = _traits([card.not_usable_by]) if card.not_usable_by else set()
    sex = None
    for condition in (card.usable_by,):
        if condition is not None and condition.key == "sex":
            sex = getattr(condition, "sex", None)
    allowed = _player(
        "Hero",
        3,
        hand=[name],
        in_play=_trait_names(list(allowed_traits)[:1]),
        **({"sex": sex} if sex else {}),
    )
    bonus_extra = sum(
        e.amount
        for e in card.effects
        if isinstance(e, Strength)
        and e.per is None
        and (
            e.when is None
            or (
                isinstance(e.when, AxisCondition)
                and (e.when.axis, e.when.trait()) in allowed_traits
            )
        )
    )
    if card.slot is not None and (not card.usable_by or allowed_traits or sex):
        values = ctx.run(
            "equipped by an allowed character",
            {"players": [allowed, _player("Rival")], "steps": [{"equip": name, "by": "Hero"}]},
            covers=["equip"],
        )
        if values is not None:
            if name not in values["equipped"]["Hero"]:
                ctx.report.fail(f"{name} was not equipped by an allowed character")
            else:
                ctx.run(
                    "its bonus counts in combat",
                    {
                        "players": [
                            _player(
                                "Hero",
                                3,
                                in_play=allowed["in_play"] + [name],
                                **({"sex": sex} if sex else {}),
                            ),
                            _player("Rival"),
                        ],
                        "combat": {"fighter": "Hero", "monsters": [OGRE]},
                    },
                    expect_values(fighter_strength=3 + (card.bonus or 0) + bonus_extra),
                    covers=["bonus"] + ([Strength] if bonus_extra else []),
                )
                _trait_bonus_checks(ctx, card, allowed, 3 + (card.bonus or 0) + bonus_extra)
                wearer = {**allowed, "in_play": [*allowed["in_play"], name], "hand": []}
                for effect in card.effects:
                    check = ITEM_EFFECT_CHECKS.get(type(effect))
                    if check is not None:
                        check(ctx, card, effect, wearer)
    # Forbidden characters are refused.
    if card.usable_by is not None:
        other_sex = {"male": "female", "female": "male"}.get(sex or "", "male")
        outsider = (
            ["Validator Stranger"]
            if any(axis == "race" and trait == "human" for axis, trait in allowed_traits)
            else []
        )
        ctx.run(
            "refused to a character it does not allow",
            {
                "players": [
                    _player("Hero", 3, hand=[name], sex=other_sex, in_play=outsider),
                    _player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "usable only by"},
            },
            covers=["usable_by"],
        )
    if card.not_usable_by is not None and forbidden_traits:
        ctx.run(
            "refused to a character it forbids",
            {
                "players": [
                    _player(
                        "Hero", 3, hand=[name], in_play=_trait_names(list(forbidden_traits)[:1])
                    ),
                    _player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "not usable by"},
            },
            covers=["not_usable_by"],
        )
    # Slot, hands and Big limits hold.
    same_slot = {
        "headgear": "Validator Helm",
        "armor": "Validator Mail",
        "footgear": "Validator Boots",
        "two_hands": "Validator Ram",
    }.get(card.slot or "")
    table = allowed.get("in_play", [])
    if same_slot and not card.big and (not card.usable_by or allowed_traits or sex):
        ctx.run(
            "a second item in the same slot is refused",
            {
                "players": [
                    _player(
                        "Hero",
                        3,
                        hand=[name],
                        in_play=[*table, same_slot],
                        **({"sex": sex} if sex else {}),
                    ),
                    _player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "hand" if card.slot == "two_hands" else "equipped"},
            },
            covers=["slot"],
        )
    if card.slot == "one_hand" and (not card.usable_by or allowed_traits or sex):
        ctx.run(
            "a third hand is refused",
            {
                "players": [
                    _player(
                        "Hero",
                        3,
                        hand=[name],
                        in_play=[*table, "Validator Sword", "Validator Buckler"],
                        **({"sex": sex} if sex else {}),
                    ),
                    _player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "hand"},
            },
            covers=["slot"],
        )
    if card.big:
        ctx.run(
            "a second Big item is refused",
            {
                "players": [
                    _player(
                        "Hero",
                        3,
                        hand=[name],
                        in_play=[*table, "Validator Cart"],
                        **({"sex": sex} if sex else {}),
                    ),
                    _player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "Big item"},
            },
            covers=["big"],
        )
    for effect in card.effects:
        if isinstance(effect, RunAway) and effect.when is None and effect.per is None:
            needed = 5 - effect.amount
            if 1 <= needed <= 6:
                ctx.run(
                    f"{effect.amount:+d} to Run Away",
                    {
                        "players": [
                            _player(
                                "Hero", 6, in_play=[*table, name], **({"sex": sex} if sex else {})
                            ),
                            _player("Rival", 1, hand=[RAGE]),
                        ],
                        "combat": {"fighter": "Hero", "monsters": [OGRE]},
                        "steps": [
                            {"play": RAGE, "by": "Rival", "on": OGRE},
                            {"resolve": True},
                        ],
                        "dice": [needed],
                    },
                    expect_values(outcome="escaped"),
                    covers=[RunAway],
                )


JINX = "Validator Jinx"


def _curse_immunity_check(
    ctx: CheckContext, card: ItemCard, effect: CurseImmunity, wearer: dict[str, Any]
) -> None:
    # A curse (-1 level) from the wearer's own door passes it by; one a rival plays does not.
    passed = ctx.run(
        "a curse from its own door has no effect",
        {
            "players": [wearer, _player("Rival")],
            "deck": {"door": [JINX]},
            "steps": [{"kick_door": "Hero"}],
            "expect": {"not_in_play": {"Hero": [JINX]}},
        },
        expect_values(levels={"Hero": 3}),
    )
    if passed is not None:
        ctx.run(
            "a curse a rival plays still hits",
            {
                "players": [wearer, _player("Rival", hand=[JINX])],
                "steps": [{"play": JINX, "by": "Rival", "on": "Hero"}],
            },
            expect_values(levels={"Hero": 2}),
            covers=[CurseImmunity],
        )


def _escape_item_check(
    ctx: CheckContext, card: ItemCard, effect: AutomaticEscape, wearer: dict[str, Any]
) -> None:
    """Thrown away, it buys an escape without a roll from a monster its condition names (and
    is gone); from any other, the roll decides and it stays."""
    if not effect.discard_this:
        return
    cases = _monster_cases(effect.when)
    passed = bool(cases)
    for monster, escapes in cases:
        passed = (
            ctx.run(
                f"{'thrown to escape' if escapes else 'no help'} against {monster}",
                {
                    "players": [{**wearer, "level": 6}, _player("Rival", hand=[RAGE])],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [{"play": RAGE, "by": "Rival", "on": monster}, {"resolve": True}],
                    "dice": [1, 1, 1],
                    "expect": {"not_in_play" if escapes else "in_play": {"Hero": [card.name]}},
                },
                expect_values(outcome="escaped") if escapes else _caught,
            )
            is not None
            and passed
        )
    if passed:
        ctx.covered.add(typing_literal(AutomaticEscape))


def _monster_cases(condition: ConditionBase | None) -> list[tuple[str, bool]]:
    """Monsters for which a monster condition holds (True) and fails (False)."""
    if condition is None:
        return [(OGRE, True)]
    if isinstance(condition, MonsterLevelIn):
        return [(_level_monster(level), holds) for level, holds in _level_cases(condition)]
    stand_in = _stand_in(condition)
    return [(stand_in, True), (OGRE, False)] if stand_in else []


def _force_help_check(
    ctx: CheckContext, card: ItemCard, effect: ForceHelp, wearer: dict[str, Any]
) -> None:
    """The wearer may force a rival to help; a plain character may not; never for the win."""
    rival = _player("Rival", 2)
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    alone = ctx.run("without a helper", {"players": [wearer, rival], "combat": fight})
    helped = ctx.run(
        "forces a rival to help",
        {"players": [wearer, rival], "combat": fight, "steps": [{"help": "Rival", "forced": True}]},
    )
    if alone is None or helped is None:
        return
    if helped["fighter_strength"] != alone["fighter_strength"] + 2:
        ctx.report.fail("the forced helper's strength did not count")
        return
    ctx.run(
        "nobody is forced without the card",
        {
            "players": [_player("Hero", 3), rival],
            "combat": fight,
            "steps": [{"help": "Rival", "forced": True}],
            "expect": {"error": "forces"},
        },
    )
    ctx.run(
        "never forced into a fight for the win",
        {
            "players": [{**wearer, "level": 9}, rival],
            "combat": fight,
            "steps": [{"help": "Rival", "forced": True}],
            "expect": {"error": "for the win"},
        },
        covers=[ForceHelp],
    )


ITEM_EFFECT_CHECKS: dict[
    type[EffectBase], Callable[[CheckContext, ItemCard, Any, dict[str, Any]], None]
] = {
    CurseImmunity: _curse_immunity_check,
    AutomaticEscape: _escape_item_check,
    ForceHelp: _force_help_check,
}


def _trait_bonus_checks(
    ctx: CheckContext, card: ItemCard, allowed: dict[str, Any], strength: int
) -> None:
    """A bonus for a trait the item does not require: tried with the trait, and without."""
    for effect in card.effects:
        if not (
            isinstance(effect, Strength)
            and effect.per is None
            and isinstance(effect.when, AxisCondition)
        ):
            continue
        trait = (effect.when.axis, effect.when.trait())
        if trait in _traits([card.usable_by] if card.usable_by else []):
            continue  # already counted for the allowed character
        passed = True
        for traits in ([trait], []):
            hero = {**allowed, "in_play": allowed["in_play"] + _trait_names(traits) + [card.name]}
            hero.pop("hand", None)
            passed = (
                ctx.run(
                    f"its {effect.amount:+d} {'with' if traits else 'without'} the trait",
                    {
                        "players": [hero, _player("Rival")],
                        "combat": {"fighter": "Hero", "monsters": [OGRE]},
                    },
                    expect_values(fighter_strength=strength + (effect.amount if traits else 0)),
                )
                is not None
                and passed
            )
        if passed:
            ctx.covered.add(typing_literal(Strength))


# --------------------------------------------------------------------------------------------
# Cards played (one-shots, other cards, followers) and abilities used
# --------------------------------------------------------------------------------------------


@dataclass
class Source:
    """How the Hero brings an effect into play: by playing the card, or using its ability."""

    card: CardBase
    ability: Ability | None = None

    @property
    def label(self) -> str:
        return self.ability.name if self.ability is not None else self.card.name

    def hand(self) -> list[str]:
        """What the user holds: the card, or what the ability's cost discards (all of it)."""
        if self.ability is None:
            return [self.card.name]
        cost = self.ability.cost
        if cost is None:
            return []
        count = 2 if cost.discard_hand else cost.discard or min(1, cost.discard_up_to)
        return ["Validator Trinket"] * count

    def table(self) -> list[str]:
        return [self.card.name] if self.ability is not None else []

    def step(self, by: str = "Hero", on: str | None = None) -> dict[str, Any]:
        step: dict[str, Any]
        if self.ability is None:
            step = {"play": self.card.name, "by": by}
        else:
            whole = self.ability.cost is not None and self.ability.cost.discard_hand
            step = {
                "use": self.card.name,
                "ability": self.ability.slug,
                "by": by,
                "discard": [] if whole else self.hand(),
            }
        return {**step, **({"on": on} if on else {})}


def _played_checks(ctx: CheckContext, card: CardBase) -> None:
    """Effects that come with playing the card, each checked by its type."""
    outcomes = [e for e in card.effects if isinstance(e, OutcomeBase)]
    removals = [e for e in card.effects if isinstance(e, RemoveMonster)]
    for removal in removals:
        _removal_check(ctx, Source(card), removal, outcomes)
    timing = getattr(card, "timing", "any")
    if outcomes and not removals:
        if timing == "on_draw":
            _on_draw_check(ctx, card, outcomes)
        elif timing not in ("combat", "running_away"):
            _outcomes_check(ctx, Source(card), outcomes)
    for effect in card.effects:
        check = PLAYED_CHECKS.get(type(effect))
        if check is not None:
            check(ctx, card, effect)


def _removal_check(
    ctx: CheckContext, source: Source, effect: RemoveMonster, outcomes: Sequence[OutcomeBase]
) -> None:
    """Against the Ogre and the Imp: the monsters removed leave without a kill (no level;
    their Treasure only if the effect says so); the others are fought as usual."""
    everyone = effect.count == "all" or int(effect.count) >= 2
    draws = [e for e in outcomes if isinstance(e, DrawTreasures)]
    only_draws = len(draws) == len(outcomes)  # other outcomes are not predicted here
    # A rival plays it when what it draws goes to the fighter, to show whose it is.
    by = (
        "Rival"
        if source.ability is None and any(e.recipient == "fighter" for e in draws)
        else "Hero"
    )
    hands = {"Hero": 0, "Rival": 0}
    for draw in draws:
        hands["Hero" if draw.recipient == "fighter" else by] += draw.count
    paid = 3 if everyone else 2  # the Ogre's 2 Treasures, and the Imp's 1 when it goes too
    treasures = (paid if effect.treasures else 0) + (0 if everyone else 1)
    hands["Hero"] += treasures
    user = _player(by, 3, in_play=source.table(), hand=source.hand())
    players = [user, _player("Rival")] if by == "Hero" else [_player("Hero", 3), user]
    steps = [source.step(by, on=None if everyone else OGRE)]
    ctx.run(
        f"{source.label}: {'every monster leaves' if everyone else 'one monster leaves'}",
        {
            "players": players,
            "combat": {"fighter": "Hero", "monsters": [OGRE, IMP]},
            "steps": steps if everyone else [*steps, {"resolve": True}],
        },
        expect_values(
            outcome="won",
            levels={"Hero": 3 if everyone else 4},
            treasures_drawn=treasures,
            hand_sizes=hands if only_draws else {},
        ),
        covers=[RemoveMonster] + ([DrawTreasures] if only_draws else []),
    )


OUTCOME_TABLE = [Seat("Rival", 5, ["Validator Helm", "Validator Ram"]), Seat("Third", 4)]


def _outcomes_check(ctx: CheckContext, source: Source, outcomes: Sequence[EffectBase]) -> None:
    """Outcomes for the player who uses the card, at a table where there is something to take:
    a rival with a Small and a Big item and a Level to spare, a Race card in the Door discards.
    A card that takes from one player is played on the lower one; a taken card is played."""
    walked = _walk(outcomes)
    target = "Third" if any(isinstance(e, StealLevel) for e in walked) else None
    takes = any(isinstance(e, TakeFromDiscard) for e in walked)
    faces = sorted({o.min for e in walked if isinstance(e, Roll) for o in e.outcomes}) or [3]
    players = [
        _player("Hero", 3, in_play=source.table(), hand=source.hand()),
        _player("Rival", 5, in_play=["Validator Stranger", *OUTCOME_TABLE[0].items]),
        _player("Third", 4),
    ]
    steps = [
        {"discard_card": "Validator Stranger", "by": "Rival"},
        source.step(on=target),
        *([{"play": "Validator Stranger", "by": "Hero"}] if takes else []),
    ]
    for face in faces:
        victim = Victim(3, [], 0, set(), others=[s.copy() for s in OUTCOME_TABLE])
        victim.discard, victim.target = [STRANGER], target
        states = predict(outcomes, victim, face)
        for state in states:
            if takes and STRANGER not in state.discard:
                state.doors -= 1  # the Race card taken is then played
                state.traits.add(STRANGER)
        ctx.run(
            f"{source.label}, die {face}",
            {"players": players, "steps": steps, "dice": [face]},
            _table_matches(victim, states),
            covers=_kinds(outcomes) if all(_predictable(e) for e in outcomes) else [],
        )


def _on_draw_check(ctx: CheckContext, card: CardBase, outcomes: Sequence[EffectBase]) -> None:
    """Drawn the usual way (kicking the door, or as a monster's Treasure), it acts at once on
    whoever draws it; two others have the traits its conditions name, one of them at Level 9."""
    traits = _traits(c for e in outcomes for c in _conditions(e))
    others = [Seat("Rival", 4, traits=set(traits)), Seat("Third", 9, traits=set(traits))]
    players = [_player(s.name, s.level, in_play=_trait_names(traits)) for s in others]
    if card.deck == "door":
        victim = Victim(3, [], 0, set(), others=others)
        document = {
            "players": [_player("Hero", 3), *players],
            "deck": {"door": [card.name]},
            "steps": [{"kick_door": "Hero"}],
        }
    else:  # the first of the Ogre's 2 Treasures, after its level
        victim = Victim(4, ["Validator Gauntlet"], 1, set(), others=others)
        document = {
            "players": [_player("Hero", 3, in_play=["Validator Gauntlet"]), *players],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "deck": {"treasure": [card.name]},
            "steps": [{"resolve": True}],
        }
    ctx.run(
        "it acts as soon as it is drawn",
        document,
        _table_matches(victim, predict(outcomes, victim, 3)),
        covers=_kinds(outcomes) if all(_predictable(e) for e in outcomes) else [],
    )


def _double_strength_check(ctx: CheckContext, card: CardBase, effect: DoubleStrength) -> None:
    ctx.run(
        "doubles the player's strength",
        {
            "players": [_player("Hero", 3, hand=[card.name]), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=6),
        covers=[DoubleStrength],
    )


def _automatic_escape_check(ctx: CheckContext, card: CardBase, effect: AutomaticEscape) -> None:
    if not isinstance(card, OneShotCard):
        return  # only a one-shot is played into a fight for it
    ctx.run(
        "an automatic escape",
        {
            "players": [_player("Hero", 6, hand=[card.name]), _player("Rival", 1, hand=[RAGE])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": RAGE, "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Hero"},
                {"resolve": True},
            ],
            "dice": [1, 1],
        },
        expect_values(outcome="escaped", levels={"Hero": 6}),
        covers=[AutomaticEscape],
    )


def _strength_per_check(ctx: CheckContext, card: CardBase, effect: Strength) -> None:
    traits = _traits([effect.per.players_on_side] if isinstance(effect.per, PlayersOnSide) else [])
    if len(traits) != 1:
        return
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    ctx.run(
        "its bonus per matching player",
        {
            "players": [
                _player("Hero", 2, hand=[card.name], in_play=_trait_names(traits)),
                _player("Rival"),
            ],
            "combat": fight,
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=2 + effect.amount),
        covers=[Strength],
    )
    ctx.run(
        "nothing without one",
        {
            "players": [_player("Hero", 2, hand=[card.name]), _player("Rival")],
            "combat": fight,
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=2),
    )


def _kill_monster_check(ctx: CheckContext, card: CardBase, effect: KillMonster) -> None:
    monster = OGRE if effect.when is None else _stand_in(effect.when)
    if monster is None:
        return
    # The Ogre pays 2 Treasures; a stand-in (Level 10) pays 1.
    ctx.run(
        f"kills {monster} outright",
        {
            "players": [_player("Hero", 1, hand=[card.name]), _player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [monster]},
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(
            outcome="won", levels={"Hero": 2}, treasures_drawn=2 if monster == OGRE else 1
        ),
        covers=[KillMonster],
    )


def _transfer_check(ctx: CheckContext, card: CardBase, effect: TransferCombat) -> None:
    # The new fighter wins and takes the rewards; the first may still Loot the Room.
    ctx.run(
        "another player takes over the fight",
        {
            "players": [_player("Hero", 1, hand=[card.name]), _player("Rival", 8)],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "on": "Rival"},
                {"resolve": True},
                {"loot_room": "Hero"},
            ],
        },
        expect_values(
            outcome="won",
            fighter_strength=8,
            treasures_drawn=2,
            levels={"Hero": 1, "Rival": 9},
            hand_sizes={"Hero": 1, "Rival": 2},
        ),
        covers=[TransferCombat],
    )


def _losing(card: CardBase, by: str, dice: Sequence[int] = ()) -> dict[str, Any]:
    """A fight the Level 3 Hero loses (the Rival holds a Rage), the card in `by`'s hand."""
    hand: dict[str, list[str]] = {"Hero": [], "Rival": [RAGE]}
    hand[by].append(card.name)
    return {
        "players": [_player("Hero", 3, hand=hand["Hero"]), _player("Rival", 1, hand=hand["Rival"])],
        "combat": {"fighter": "Hero", "monsters": [OGRE]},
        "dice": list(dice),
    }


def _die_check(ctx: CheckContext, card: CardBase, effect: ChangeDieRoll) -> None:
    # The runner sets the die to the number that helps most: a 6 escapes the Ogre.
    document = _losing(card, "Hero", dice=[1, 1])
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Hero"},
        {"resolve": True},
    ]
    ctx.run(
        "a die of 1 becomes a 6",
        document,
        expect_values(outcome="escaped", levels={"Hero": 3}),
        covers=[ChangeDieRoll],
    )


def _glue_check(ctx: CheckContext, card: CardBase, effect: CancelEscape) -> None:
    # A 6 escapes, is undone, and the second roll (1) is caught: the Ogre takes a level.
    document = _losing(card, "Rival", dice=[6, 1, 1])
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Rival", "on": "Hero"},
        {"resolve": True},
    ]
    ctx.run(
        "an escape undone must be rolled again",
        document,
        expect_values(outcome="caught", levels={"Hero": 2}),
        covers=[CancelEscape],
    )


def _cancel_curse_check(ctx: CheckContext, card: CardBase, effect: CancelCurse) -> None:
    # The Hex (-3 in the next combat) counts in this one until it is cancelled, mid-fight.
    ctx.run(
        "a curse cancelled in the middle of a fight",
        {
            "players": [
                _player("Hero", 4, in_play=["Validator Hex"], hand=[card.name]),
                _player("Rival"),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Hero", "on": "Hero"}],
            "expect": {"not_in_play": {"Hero": ["Validator Hex"]}},
        },
        expect_values(fighter_strength=4),
        covers=[CancelCurse],
    )


def _extra_character_check(ctx: CheckContext, card: CardBase, effect: ExtraCharacterCard) -> None:
    """With one card of the axis, the Hater (+5 against the first) loses its bonus; a second
    card joins the first instead of replacing it, and the drawbacks are back."""
    one, two = (_title(_axis_card(effect.axis, rank)[1]) for rank in range(2))
    fight = {"fighter": "Hero", "monsters": [f"Validator {_title(effect.axis)} Hater"]}
    runs = [
        ("with one card, none of its drawbacks", [card.name], [card.name], 1),
        ("a second card joins the first, drawbacks and all", [card.name, two], [one, two], 6),
    ]
    passed = True
    for label, played, kept, strength in runs:
        passed = (
            ctx.run(
                label,
                {
                    "players": [_player("Hero", 3, in_play=[one], hand=played), _player("Rival")],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Hero"} for name in played],
                    "expect": {"in_play": {"Hero": [card.name, *kept]}},
                },
                expect_values(monster_strength=strength),
            )
            is not None
            and passed
        )
    if passed:
        ctx.covered.add(typing_literal(ExtraCharacterCard))


def _cheat_check(ctx: CheckContext, card: CardBase, effect: Cheat) -> None:
    # The Tiara is a second Headgear, and only for a female character: with Cheat! it counts.
    ctx.run(
        "an item used against the rules and its restriction",
        {
            "players": [
                _player("Hero", 1, in_play=["Validator Helm"], hand=[card.name, "Validator Tiara"]),
                _player("Rival"),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "with": "Validator Tiara"},
                {"kick_door": "Hero"},
            ],
            "expect": {
                "equipped": {"Hero": ["Validator Helm", "Validator Tiara"]},
                "in_play": {"Hero": [card.name]},
            },
        },
        expect_values(fighter_strength=1 + _bonus(["Validator Helm", "Validator Tiara"])),
        covers=[Cheat],
    )


def _add_monster_check(ctx: CheckContext, card: CardBase, effect: AddMonster) -> None:
    players = [
        _player("Hero", 1, in_play=["Validator Gauntlet"]),
        _player("Rival", hand=[card.name, IMP]),
    ]
    steps = [{"play": card.name, "by": "Rival", "with": IMP}, {"resolve": True}]
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    passed = ctx.run(
        "strengths add up, and both pay",
        {"players": players, "combat": fight, "steps": steps},
        expect_values(monster_strength=6, outcome="won", levels={"Hero": 3}, treasures_drawn=3),
    )
    # Fled separately: a 5 escapes one, a 1 is caught by the other (-1 for the Ogre, -2 the Imp).
    players[0] = _player("Hero", 4)
    if passed is not None:
        ctx.run(
            "each is fled from separately",
            {"players": players, "combat": fight, "steps": steps, "dice": [5, 1]},
            lambda v: (
                _caught(v)
                or (None if v["levels"]["Hero"] in (2, 3) else f"Level {v['levels']['Hero']}")
            ),
            covers=[AddMonster],
        )


def _mate_check(ctx: CheckContext, card: CardBase, effect: Mate) -> None:
    # Ogre (5) + Vigor (+3, +1 Treasure), twice: 16 strong, 2 levels and 6 Treasures.
    passed = ctx.run(
        "a copy with its enhancers: both to kill, both pay",
        {
            "players": [
                _player("Hero", 3, in_play=["Validator Gauntlet"]),
                _player("Rival", hand=["Validator Vigor", card.name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": "Validator Vigor", "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Rival", "on": OGRE},
                {"resolve": True},
            ],
        },
        expect_values(monster_strength=16, outcome="won", levels={"Hero": 5}, treasures_drawn=6),
    )
    needed = 5 - effect.runaway
    if passed is None or not 2 <= needed <= 6:
        return
    # One die short of the modified roll is caught (by an Ogre: -1); the other roll escapes.
    ctx.run(
        f"running from the pair at {effect.runaway:+d}",
        {
            "players": [_player("Hero", 3), _player("Rival", hand=[card.name])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Rival", "on": OGRE}, {"resolve": True}],
            "dice": [needed - 1, needed],
        },
        expect_values(outcome="caught", levels={"Hero": 2}),
        covers=[Mate],
    )


def _replace_check(ctx: CheckContext, card: CardBase, effect: ReplaceMonster) -> None:
    # The Enraged Ogre goes, Rage and all; the Imp from the hand is fought instead.
    document = _losing(card, "Hero")
    document["players"][0]["hand"].append(IMP)
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Hero", "on": OGRE, "with": IMP},
        {"resolve": True},
    ]
    ctx.run(
        "a monster swapped for one from the hand",
        document,
        expect_values(monster_strength=1, outcome="won", levels={"Hero": 4}, treasures_drawn=1),
        covers=[ReplaceMonster],
    )


def _take_item_check(ctx: CheckContext, card: CardBase, effect: TakeItemInCombat) -> None:
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    rival = _player("Rival", in_play=["Validator Gauntlet", "Validator Helm"])

    def take(item: str) -> list[dict[str, Any]]:
        return [{"play": card.name, "by": "Hero", "on": "Rival", "with": item}]

    runs: list[tuple[str, dict[str, Any], Accept | None]] = [
        (
            "an item that turns the loss into a win",
            {
                "players": [_player("Hero", 1, hand=[card.name]), rival],
                "steps": [*take("Validator Gauntlet"), {"resolve": True}],
                "expect": {
                    "equipped": {"Hero": ["Validator Gauntlet"]},
                    "not_in_play": {"Rival": ["Validator Gauntlet"]},
                },
            },
            expect_values(fighter_strength=31, outcome="won", levels={"Hero": 2}),
        ),
        (
            "not an item that leaves the fight lost",
            {
                "players": [_player("Hero", 1, hand=[card.name]), rival],
                "steps": take("Validator Helm"),
                "expect": {"error": True, "in_play": {"Rival": ["Validator Helm"]}},
            },
            expect_values(fighter_strength=1),
        ),
        (
            "not while winning",
            {
                "players": [
                    _player("Hero", 1, hand=[card.name], in_play=["Validator Gauntlet"]),
                    _player("Rival", in_play=["Validator Helm"]),
                ],
                "steps": take("Validator Helm"),
                "expect": {"error": True, "in_play": {"Rival": ["Validator Helm"]}},
            },
            expect_values(fighter_strength=31),
        ),
    ]
    passed = True
    for label, document, accept in runs:
        passed = ctx.run(label, {**document, "combat": fight}, accept) is not None and passed
    if passed:
        ctx.covered.add(typing_literal(TakeItemInCombat))


def _carry_check(ctx: CheckContext, card: CardBase, effect: CarryItem) -> None:
    # It carries one more Big item (when the card says so), and only one.
    bigs = ["Validator Ram"] * (2 if effect.big else 1)
    ctx.run(
        "carries one item past the limits" if effect.big else "carries no Big item",
        {
            "players": [
                _player("Hero", 3, in_play=["Validator Cart"], hand=[card.name, *bigs]),
                _player("Rival"),
            ],
            "steps": [{"play": name, "by": "Hero"} for name in [card.name, *bigs]],
            "expect": {
                "error": "Big",
                "in_play": {"Hero": [card.name, "Validator Cart", *bigs[1:]]},
            },
        },
        covers=[CarryItem],
    )


PLAYED_CHECKS: dict[type[EffectBase], Callable[[CheckContext, CardBase, Any], None]] = {
    DoubleStrength: _double_strength_check,
    AutomaticEscape: _automatic_escape_check,
    Strength: lambda ctx, card, e: _strength_per_check(ctx, card, e) if e.per else None,
    KillMonster: _kill_monster_check,
    TransferCombat: _transfer_check,
    ChangeDieRoll: _die_check,
    CancelEscape: _glue_check,
    CancelCurse: _cancel_curse_check,
    ExtraCharacterCard: _extra_character_check,
    Cheat: _cheat_check,
    AddMonster: _add_monster_check,
    Mate: _mate_check,
    ReplaceMonster: _replace_check,
    TakeItemInCombat: _take_item_check,
    CarryItem: _carry_check,
}


def _one_shot_checks(ctx: CheckContext, card: OneShotCard) -> None:
    name = card.name
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    if card.bonus:
        if card.side in ("either", "player"):
            ctx.run(
                "its bonus for the munchkins",
                {
                    "players": [_player("Hero", 2, hand=[name]), _player("Rival")],
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
                    "players": [_player("Hero", 2), _player("Rival", 1, hand=[name])],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Rival", "on": OGRE}],
                },
                expect_values(fighter_strength=2, monster_strength=5 + card.bonus),
                covers=["one_shot_bonus"],
            )
    _played_checks(ctx, card)


def _enhancer_checks(ctx: CheckContext, card: MonsterEnhancerCard) -> None:
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
                _player("Hero", 1, in_play=["Validator Gauntlet"]),
                _player("Rival", 1, hand=[name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": name, "by": "Rival", "on": OGRE}, {"resolve": True}],
        },
        expect_values(monster_strength=strength, outcome="won", treasures_drawn=treasures),
        covers=["enhancer"],
    )


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


def _level_card_checks(ctx: CheckContext, card: LevelCard) -> None:
    name = card.name
    gain = sum(e.amount for e in card.effects if isinstance(e, GainLevels))
    henchman = (
        ["Validator Henchman"] if card.requires and card.requires.key == "has_in_play" else []
    )
    # A card played only after a won fight: the Hero first kills the Ogre (one level).
    after = card.timing == "after_combat"
    fight: dict[str, Any] = {"combat": {"fighter": "Hero", "monsters": [OGRE]}} if after else {}
    gear = ["Validator Gauntlet"] if after else []
    kill = [{"resolve": True}] if after else []

    def played(level: int, in_play: list[str], rival: int, **expect: Any) -> dict[str, Any]:
        return {
            "players": [
                _player("Hero", level - after, hand=[name], in_play=gear + in_play),
                _player("Rival", rival),
            ],
            **fight,
            "steps": [*kill, {"play": name, "by": "Hero"}],
            **({"expect": expect} if expect else {}),
        }

    if card.requires is None or henchman or card.requires.key == "not":
        ctx.run(
            "a level for its player",
            played(3, henchman, 5),
            expect_values(levels={"Hero": 3 + gain}),
            covers=[GainLevels],
        )
    ctx.run(
        "never the winning level",
        played(9, henchman, 9, error=True),
        expect_values(levels={"Hero": 9}),
    )
    if card.requires is not None and card.requires.key in ("has_in_play", "not"):
        ctx.run(
            "refused when its condition fails",
            played(3, [], 1, error="playable only by"),
            covers=["requires"],
        )
    if after:
        ctx.run(
            "refused before a fight is won",
            {
                "players": [_player("Hero", 3, hand=[name], in_play=henchman), _player("Rival")],
                "steps": [{"play": name, "by": "Hero"}],
                "expect": {"error": True, "levels": {"Hero": 3}},
            },
        )
    for effect in card.effects:
        if typing_literal(type(effect)) == "discard_card":
            ctx.covered.add("discard_card")


def _character_checks(ctx: CheckContext, card: CharacterCard) -> None:
    name = card.name
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    rage = [{"play": RAGE, "by": "Rival", "on": OGRE}, {"resolve": True}]
    for effect in card.effects:
        if isinstance(effect, RunAway) and effect.when is None and effect.per is None:
            needed = 5 - effect.amount
            ctx.run(
                f"{effect.amount:+d} to Run Away",
                {
                    "players": [
                        _player("Hero", 6, in_play=[name]),
                        _player("Rival", 1, hand=[RAGE]),
                    ],
                    "combat": fight,
                    "steps": rage,
                    "dice": [needed],
                },
                expect_values(outcome="escaped"),
            )
            if needed - 1 >= 1:
                ctx.run(
                    f"{effect.amount:+d} to Run Away, one short",
                    {
                        "players": [
                            _player("Hero", 6, in_play=[name]),
                            _player("Rival", 1, hand=[RAGE]),
                        ],
                        "combat": fight,
                        "steps": rage,
                        "dice": [needed - 1],
                    },
                    expect_values(outcome="caught"),
                    covers=[RunAway],
                )
        elif isinstance(effect, WinsTies):
            ctx.run(
                "wins a tie",
                {
                    "players": [_player("Hero", 5, in_play=[name]), _player("Rival")],
                    "combat": fight,
                    "steps": [{"resolve": True}],
                },
                expect_values(outcome="won"),
                covers=[WinsTies],
            )
        elif isinstance(effect, HandSize):
            ctx.run(
                f"keeps {effect.size} cards after charity",
                {
                    "players": [
                        _player(
                            "Hero",
                            5,
                            in_play=[name],
                            hand=["Validator Trinket"] * (effect.size + 1),
                        ),
                        _player("Rival", 1),
                    ],
                    "steps": [{"end_turn": True}],
                },
                expect_values(hand_sizes={"Hero": effect.size}),
                covers=[HandSize],
            )
        elif isinstance(effect, ExtraBigItems):
            ctx.run(
                "carries another Big item",
                {
                    "players": [
                        _player(
                            "Hero", 5, in_play=[name, "Validator Cart"], hand=["Validator Ram"]
                        ),
                        _player("Rival"),
                    ],
                    "steps": [{"equip": "Validator Ram", "by": "Hero"}],
                },
                expect_values(),
                covers=[ExtraBigItems],
            )
        elif typing_literal(type(effect)) == "helper_levels":
            ctx.run(
                "a helper gains a level per monster",
                {
                    "players": [
                        _player("Hero", 3, in_play=["Validator Gauntlet"]),
                        _player("Helper", 2, in_play=[name]),
                    ],
                    "combat": fight,
                    "steps": [{"help": "Helper"}, {"resolve": True}],
                },
                expect_values(levels={"Helper": 3, "Hero": 4}),
                covers=["helper_levels"],
            )
        elif typing_literal(type(effect)) == "sell_double":
            # 400 doubled + 200 makes the 1,000 that 600 alone would not.
            ctx.run(
                "sells one item at double value",
                {
                    "players": [
                        _player(
                            "Hero", 3, in_play=[name], hand=["Validator Ram", "Validator Helm"]
                        ),
                        _player("Rival"),
                    ],
                    "steps": [{"sell": ["Validator Ram", "Validator Helm"], "by": "Hero"}],
                },
                expect_values(levels={"Hero": 4}),
                covers=["sell_double"],
            )
    for ability in card.abilities:
        strength = [e for e in ability.effects if isinstance(e, Strength)]
        run = [e for e in ability.effects if isinstance(e, RunAway)]
        discards = ability.cost.discard_up_to or ability.cost.discard if ability.cost else 0
        hand = ["Validator Trinket"] * max(discards, 1)
        monster = OGRE
        if strength and ability.target == "self" and ability.when is None and discards:
            total = sum(e.amount * (discards if e.per == "discarded_card" else 1) for e in strength)
            ctx.run(
                f"{ability.name} with {discards} discard(s)",
                {
                    "players": [_player("Hero", 3, in_play=[name], hand=hand), _player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [
                        {
                            "use": name,
                            "ability": ability.slug,
                            "by": "Hero",
                            "discard": hand[:discards],
                        }
                    ],
                },
                expect_values(
                    fighter_strength=3 + total, hand_sizes={"Hero": len(hand) - discards}
                ),
                covers=[Strength, "ability"],
            )
        elif strength and ability.when is not None:
            ctx.run(
                f"{ability.name} refused outside its condition",
                {
                    "players": [_player("Hero", 3, in_play=[name], hand=hand), _player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [
                        {"use": name, "ability": ability.slug, "by": "Hero", "discard": hand[:1]}
                    ],
                    "expect": {"error": "works only"},
                },
                covers=["ability_condition"],
            )
            _conditional_ability_check(ctx, card, ability, strength)
        elif strength and ability.target == "fighting_player":
            total = sum(e.amount for e in strength)
            ctx.run(
                f"{ability.name} on a fighting player",
                {
                    "players": [_player("Hero", 3), _player("Rival", 1, in_play=[name], hand=hand)],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [
                        {
                            "use": name,
                            "ability": ability.slug,
                            "by": "Rival",
                            "on": "Hero",
                            "discard": hand[: max(1, discards)],
                        }
                    ],
                },
                expect_values(fighter_strength=3 + total),
                covers=[Strength, "ability"],
            )
        elif run and discards:
            total = sum(e.amount * discards for e in run)
            needed = 5 - total
            ctx.run(
                f"{ability.name} helps running away",
                {
                    "players": [
                        _player("Hero", 6, in_play=[name], hand=hand),
                        _player("Rival", 1, hand=[RAGE]),
                    ],
                    "combat": fight,
                    "steps": [
                        {"play": RAGE, "by": "Rival", "on": OGRE},
                        {
                            "use": name,
                            "ability": ability.slug,
                            "by": "Hero",
                            "discard": hand[:discards],
                        },
                        {"resolve": True},
                    ],
                    "dice": [max(1, needed)],
                },
                expect_values(outcome="escaped"),
                covers=[RunAway, "ability"],
            )
        _ability_effect_checks(ctx, card, ability)


def _conditional_ability_check(
    ctx: CheckContext, card: CharacterCard, ability: Ability, strength: list[Strength]
) -> None:
    """A strength ability against a monster it names: used on a stand-in for that monster."""
    monster = _stand_in(ability.when) if ability.when is not None else None
    if monster is None or ability.target != "self":
        return
    source = Source(card, ability)
    discards = len(source.hand())
    total = sum(e.amount * (discards if e.per == "discarded_card" else 1) for e in strength)
    ctx.run(
        f"{ability.name} against {monster}",
        {
            "players": [
                _player("Hero", 3, in_play=source.table(), hand=source.hand()),
                _player("Rival"),
            ],
            "combat": {"fighter": "Hero", "monsters": [monster]},
            "steps": [source.step()],
        },
        expect_values(fighter_strength=3 + total),
        covers=[Strength],
    )


def _ability_effect_checks(ctx: CheckContext, card: CharacterCard, ability: Ability) -> None:
    source = Source(card, ability)
    outcomes = [e for e in ability.effects if isinstance(e, OutcomeBase)]
    for effect in ability.effects:
        if isinstance(effect, RemoveMonster):
            _removal_check(ctx, source, effect, outcomes)
        elif isinstance(effect, DrawFromDiscard):
            _draw_from_discard_check(ctx, source)
    if outcomes and ability.timing not in ("combat", "running_away") and ability.target == "self":
        _outcomes_check(ctx, source, outcomes)


def _draw_from_discard_check(ctx: CheckContext, source: Source) -> None:
    # The Door deck would give the Ogre (a fight); the top of the discards is a Race card,
    # which comes to the hand instead and can then be played.
    ctx.run(
        f"{source.label}: the top of the discards instead of a draw",
        {
            "players": [
                _player("Hero", 3, in_play=source.table(), hand=source.hand()),
                _player("Rival", in_play=["Validator Stranger"]),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"discard_card": "Validator Stranger", "by": "Rival"},
                source.step(),
                {"kick_door": "Hero"},
                {"play": "Validator Stranger", "by": "Hero"},
            ],
            "expect": {"in_play": {"Hero": ["Validator Stranger"]}, "outcome": "none"},
        },
        expect_values(hand_sizes={"Hero": 0}),
        covers=[DrawFromDiscard],
    )


KIND_CHECKS: dict[type[CardBase], Callable[[CheckContext, Any], None]] = {
    MonsterCard: _monster_checks,
    ItemCard: _item_checks,
    OneShotCard: _one_shot_checks,
    MonsterEnhancerCard: _enhancer_checks,
    CurseCard: _curse_checks,
    LevelCard: _level_card_checks,
    CharacterCard: _character_checks,
    OtherCard: _played_checks,
    FollowerCard: _played_checks,
}


# --------------------------------------------------------------------------------------------
# Text check
# --------------------------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.])[+-]?\d[\d,]*")


def text_check(card: CardBase, report: CardReport) -> None:
    """The rendered text shows every number of the card's stats, and agrees with the notes."""
    text = render_text(card)
    numbers = {n.replace(",", "").lstrip("+-") for n in _NUMBER.findall(text)}
    for stat in ("level", "treasures", "levels_gained", "bonus", "gold", "strength", "rank"):
        value = getattr(card, stat, None)
        if isinstance(value, int) and value != 0 and str(abs(value)) not in numbers:
            report.fail(f"text: the {stat} {value} does not appear in the rendered text")
    if card.notes and card.encoding.status == "full":
        note_numbers = {n.replace(",", "").lstrip("+-") for n in _NUMBER.findall(card.notes)}
        # A total the notes give ("+3 altogether to an Elf") is a stat plus a conditional bonus.
        totals = {
            str(abs(stat + e.amount))
            for stat in (getattr(card, "bonus", None), getattr(card, "level", None))
            if isinstance(stat, int)
            for e in card.effects
            if isinstance(e, Strength)
        }
        missing = sorted(
            note_numbers - numbers - totals - {"1"}, key=lambda n: int(n) if n.isdigit() else 0
        )
        if missing:
            report.warn(f"text: the notes mention {', '.join(missing)}, the rendered text does not")


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------


def _library_for(card: CardBase, set_code: str) -> CardLibrary:
    library = CardLibrary()
    library.add(set_code, card)
    names = {card.name.casefold()}
    for reference in references():
        if reference.name.casefold() not in names:
            library.add("validator", reference)
            names.add(reference.name.casefold())
    for extra in extra_references():
        if extra.name.casefold() not in names:
            library.add("validator", extra)
    companions = [_trait_card(axis, name) for axis, name in _traits(card.all_conditions())]
    for companion in companions + _companions(card):
        if companion.name.casefold() not in names:
            library.add("validator", companion)
            names.add(companion.name.casefold())
    return library


def check_card(card: CardBase, set_code: str = "") -> CardReport:
    """Exercise one card in the engine and report what was seen to work. A card of no set yet
    (a draft) is checked as if in a set called "draft"."""
    set_code = set_code or "draft"
    report = CardReport(set_code, card.name, card.kind_name, card.encoding.status)
    if card.encoding.status == "partial":
        clauses = getattr(card.encoding, "clauses", [])
        report.warn(f"partly encoded; not yet encoded: {'; '.join(clauses)}")
    elif card.encoding.status == "text_only":
        report.warn(f"not encoded: {getattr(card.encoding, 'reason', '')}")
    text_check(card, report)
    ctx = CheckContext(card, set_code, report, _library_for(card, set_code))
    unknown = [name for name in card.STAT_FIELDS if getattr(card, name) is None]
    if card.deck is None and card.kind_name != "role":
        unknown.append("deck")
    if unknown:
        # Scenarios need the numbers; an incomplete card is reported, not failed.
        report.warn(f"incomplete: {', '.join(unknown)} not known, so its scenarios are not run")
    else:
        for card_type, checks in KIND_CHECKS.items():
            if isinstance(card, card_type):
                checks(ctx, card)
    needed = {typing_literal(type(e)) for e in card.all_effects()}
    uncovered = sorted(needed - ctx.covered)
    if uncovered and report.status != "fail":
        report.warn(f"no generated check predicts {', '.join(uncovered)} yet")
    report.verified = report.status != "fail" and card.encoding.status == "full" and not uncovered
    return report


def check_document(document: Any, set_code: str = "") -> CardReport:
    """Check a card document: a document that does not parse is a failure naming each path."""
    try:
        card = parse_card(document)
    except CardDocumentError as exc:
        name = document.get("name", "?") if isinstance(document, dict) else "?"
        report = CardReport(
            set_code,
            str(name),
            str(document.get("kind", "?")) if isinstance(document, dict) else "?",
            "invalid",
        )
        for error in exc.errors:
            report.fail(f"{error.path or '(document)'}: {error.message}")
        return report
    return check_card(card, set_code)


def check_cards(cards: Iterable[tuple[str, CardBase]]) -> list[CardReport]:
    """Check cards one by one, then meet them all in seeded whole games of their sets."""
    cards = list(cards)
    reports = [check_card(card, code) for code, card in cards]
    add_real_play(reports, cards, deck=cards)
    return reports


GAME_TURNS = 12
BATCH = 8


@dataclass
class Meeting:
    met: bool = False
    seed: int = 0
    crash: str | None = None


def _play_batch(
    deck: Sequence[tuple[str, CardBase]],
    doors: list[CardBase],
    treasures: list[CardBase],
    seed: int,
) -> tuple[set[str], str | None]:
    """One seeded 4-player game with these cards met early; the names seen, and any crash."""
    from validator.engine import InvariantViolation, Stats, build_game, play_game

    game = build_game(deck, players=4, seed=seed, top_doors=doors, dealt=treasures)
    forced = list(game.door_deck[: len(doors)])
    forced += [c for p in game.players for c in p.hand if c.set_code == "forced"]
    try:
        play_game(game, Stats(), max_turns=GAME_TURNS)
    except InvariantViolation as exc:
        return set(), f"an invariant broke: {exc}"
    except Exception as exc:  # a crash is a finding about the cards in play, not a stop
        return set(), f"the engine crashed ({type(exc).__name__}: {exc})"
    # A forced Door card is met once drawn; a dealt Treasure once it has left the hand.
    undrawn = {c.uid for c in game.door_deck}
    in_hands = {c.uid for p in game.players for c in p.hand}
    met = {
        c.name
        for c in forced
        if (c.card.deck == "door" and c.uid not in undrawn)
        or (c.card.deck == "treasure" and c.uid not in in_hands)
    }
    return met, None


def meet_in_games(
    targets: Sequence[tuple[str, CardBase]], deck: Sequence[tuple[str, CardBase]], seed: int = 1
) -> dict[tuple[str, str], Meeting]:
    """Play seeded whole games with the target cards drawn or dealt first, a few per game, and
    say which were met in play and which a crash or a broken invariant followed."""
    results = {(code, card.name): Meeting() for code, card in targets}
    doors = [(code, c) for code, c in targets if c.deck == "door"]
    treasures = [(code, c) for code, c in targets if c.deck == "treasure"]
    batches = max(-(-len(doors) // BATCH), -(-len(treasures) // BATCH))
    for index in range(batches):
        batch_doors = doors[index * BATCH : (index + 1) * BATCH]
        batch_treasures = treasures[index * BATCH : (index + 1) * BATCH]
        game_seed = seed * 7919 + index
        met, crash = _play_batch(
            deck, [c for _, c in batch_doors], [c for _, c in batch_treasures], game_seed
        )
        members = batch_doors + batch_treasures
        if crash is not None:
            # Find the card that brings the crash on by itself; else blame the whole batch.
            culprits = [
                (code, c)
                for code, c in members
                if _play_batch(
                    deck,
                    [c] if c.deck == "door" else [],
                    [c] if c.deck == "treasure" else [],
                    game_seed,
                )[1]
            ] or members
            for code, card in culprits:
                results[(code, card.name)] = Meeting(True, game_seed, crash)
            continue
        for code, card in members:
            results[(code, card.name)] = Meeting(card.name in met, game_seed)
    return results


def add_real_play(
    reports: Sequence[CardReport],
    cards: Sequence[tuple[str, CardBase]],
    deck: Sequence[tuple[str, CardBase]],
) -> None:
    """Add to each report what seeded whole games showed of its card."""
    by_key = {(r.set_code, r.name): r for r in reports}
    targets = [(code, card) for code, card in cards if (code, card.name) in by_key]
    if not targets or not deck:
        return
    for key, meeting in meet_in_games(targets, deck).items():
        report = by_key[key]
        if meeting.crash is not None:
            report.fail(f"in a seeded whole game (seed {meeting.seed}): {meeting.crash}")
            report.verified = False
        elif meeting.met:
            report.messages.append(f"info: in play in a seeded whole game (seed {meeting.seed})")
        else:
            report.messages.append(
                f"info: dealt in a seeded whole game (seed {meeting.seed}), but the bots kept it "
                "in hand"
            )


SUMMARY_KEYS = ("cards", "full", "partial", "text_only", "verified", "failing")


def summarize(reports: Sequence[CardReport]) -> dict[str, int]:
    return {
        "cards": len(reports),
        "full": sum(r.encoding == "full" for r in reports),
        "partial": sum(r.encoding == "partial" for r in reports),
        "text_only": sum(r.encoding == "text_only" for r in reports),
        "verified": sum(r.verified for r in reports),
        "failing": sum(r.status == "fail" for r in reports),
    }


def coverage(reports: Sequence[CardReport]) -> dict[str, Any]:
    """The summary, per set and per kind within each set."""
    out: dict[str, Any] = {"summary": summarize(reports), "sets": {}}
    for code in sorted({r.set_code for r in reports}):
        in_set = [r for r in reports if r.set_code == code]
        kinds = {
            kind: summarize([r for r in in_set if r.kind == kind])
            for kind in sorted({r.kind for r in in_set})
        }
        out["sets"][code] = {**summarize(in_set), "kinds": kinds}
    return out
