"""Exercise each card's encoded effect in the rules engine (pure Python, no Django).

For every card, scenarios are generated from its encoding and run through the engine with
seeded dice, the engine's invariants checked after every step. Each scenario states what must
happen, worked out here from the encoding and the rules, independently of the engine:
conditions are tried both ways, Bad Stuff is applied to four kinds of victim, items are equipped
by allowed and forbidden characters, enhancers and one-shots are played on a reference monster,
and so on. A card is *verified* only when it is fully encoded, every generated scenario passed,
and every effect type on it has a check that predicts its result: code that merely exists is
never counted. Cards are also met in seeded whole games (`meet_in_games`).

A card document that does not parse, or an engine crash, becomes that card's failure with the
scenario that caused it; the run goes on.
"""

from __future__ import annotations

import hashlib
import json
import re
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from validator.engine import ENGINE_VERSION
from validator.engine.cards import (
    AutomaticEscape,
    BeforeCombat,
    CannotEscape,
    CardBase,
    CardDocumentError,
    CharacterCard,
    ConditionBase,
    CurseCard,
    Death,
    DiscardHand,
    EffectBase,
    ExtraBigItems,
    ExtraLevels,
    ExtraTreasures,
    GainLevels,
    HandSize,
    ItemCard,
    LevelCard,
    LoseCharacterCard,
    LoseItems,
    LoseLevels,
    MonsterCard,
    MonsterEnhancerCard,
    NoPursuit,
    OnEscape,
    OneShotCard,
    OutcomeBase,
    PlayersOnSide,
    Roll,
    RunAway,
    SetLevel,
    Strength,
    WinsTies,
    _AxisCondition,
    dump_card,
    parse_card,
)
from validator.engine.scenario import (
    CardLibrary,
    ScenarioDocument,
    ScenarioError,
    run_scenario,
)
from validator.engine.text import render_text

CHECKS_VERSION = "1"

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


def document_hash(document: dict[str, Any]) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


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


REFERENCE_DOCUMENTS: list[dict[str, Any]] = [
    {
        "name": "Validator Ogre",
        "deck": "door",
        "kind": "monster",
        "level": 5,
        "treasures": 2,
        "levels_gained": 1,
        "bad_stuff": [{"type": "lose_levels", "amount": 1}],
        "encoding": _FULL,
    },
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
        "copies": 12,
        "encoding": _FULL,
    },
    _item("Validator Trinket", "other", bonus=0, gold=0, copies=12),
    _item("Validator Helm", "headgear"),
    _item("Validator Mail", "armor"),
    _item("Validator Boots", "footgear", tags=["below-waist"]),
    _item("Validator Sword", "one_hand"),
    _item("Validator Buckler", "one_hand"),
    _item("Validator Ram", "two_hands", big=True, bonus=2, gold=400),
    _item("Validator Cart", "other", big=True, bonus=1, gold=300),
    _item("Validator Gauntlet", "other", bonus=30, gold=0),
]
_REFERENCES: list[CardBase] | None = None
_EXTRA: list[CardBase] | None = None


def EXTRA_REFERENCES() -> list[CardBase]:  # noqa: N802 - reads as the constant it caches
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


def _trait_card(axis: str, name: str) -> CardBase:
    title = " ".join(w[:1].upper() + w[1:] for w in name.split(" "))
    return parse_card({"name": title, "deck": "door", "kind": axis, "encoding": _FULL})


def _traits(conditions: Iterable[ConditionBase]) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for condition in conditions:
        for axis, name in condition.mentions():
            if axis not in ("tag", "sex"):
                found.add((axis, name))
    return found


# --------------------------------------------------------------------------------------------
# Predicting outcomes from the encoding
# --------------------------------------------------------------------------------------------


@dataclass
class Victim:
    """What the checks know about a victim, to predict what an outcome leaves of it."""

    level: int
    items: list[str]
    hand: int
    traits: set[tuple[str, str]]
    sex: str = "male"
    dead: bool = False
    exact: bool = True  # False once an outcome's result depends on a choice not modelled

    def copy(self) -> Victim:
        return Victim(
            self.level,
            list(self.items),
            self.hand,
            set(self.traits),
            self.sex,
            self.dead,
            self.exact,
        )


ITEM_FACTS: dict[str, dict[str, Any]] = {d["name"]: d for d in REFERENCE_DOCUMENTS}


def _holds(condition: ConditionBase | None, victim: Victim) -> bool | None:
    if condition is None:
        return True
    if isinstance(condition, _AxisCondition):
        return (condition.axis, condition._name()) in victim.traits or (
            condition.axis == "race"
            and condition._name() == "human"
            and not any(axis == "race" for axis, _ in victim.traits)
        )
    from validator.engine.cards import LevelIn, NotCondition, SexIs

    if isinstance(condition, SexIs):
        return victim.sex == condition.sex
    if isinstance(condition, LevelIn):
        low, high = condition.level.min, condition.level.max
        return (low is None or victim.level >= low) and (high is None or victim.level <= high)
    if isinstance(condition, NotCondition):
        inner = _holds(condition.not_, victim)
        return None if inner is None else not inner
    return None


def predict(effects: Sequence[EffectBase], victim: Victim, die: int) -> list[Victim]:
    """The possible victims after the outcomes (several when the victim has a choice)."""
    states = [victim.copy()]
    for effect in effects:
        if not isinstance(effect, OutcomeBase):
            continue
        nxt: list[Victim] = []
        for state in states:
            if state.dead:
                nxt.append(state)
                continue
            nxt.extend(_predict_one(effect, state, die))
        states = nxt
    return states


def _predict_one(effect: OutcomeBase, state: Victim, die: int) -> list[Victim]:
    holds = _holds(effect.when, state)
    if holds is None:
        state.exact = False
        return [state]
    if not holds:
        return predict(effect.otherwise or [], state, die) if effect.otherwise else [state]
    after = state.copy()
    acted = True
    if isinstance(effect, LoseLevels):
        amount = die if effect.amount == "roll" else int(effect.amount)
        after.level = max(1, after.level - amount)
    elif isinstance(effect, GainLevels):
        after.level = min(9, after.level + effect.amount)
    elif isinstance(effect, SetLevel):
        if isinstance(effect.to, int):
            after.level = min(after.level, effect.to)
        else:
            after.exact = False
    elif isinstance(effect, Death):
        after.dead, after.items, after.hand = True, [], 0
    elif isinstance(effect, DiscardHand):
        acted = after.hand > 0
        after.hand = 0
    elif isinstance(effect, LoseItems):
        candidates = [i for i in after.items if _matches(effect, i)]
        acted = bool(candidates)
        if effect.pick == "biggest_bonus":
            best = max((ITEM_FACTS[i].get("bonus", 0) for i in candidates), default=None)
            tied = [i for i in candidates if ITEM_FACTS[i].get("bonus", 0) == best]
            return [_without(after, [i]) for i in tied] if acted else _otherwise(effect, state, die)
        if effect.count == "all" or (
            isinstance(effect.count, int) and effect.count >= len(candidates)
        ):
            after.items = [i for i in after.items if i not in candidates]
        elif acted:
            from itertools import combinations

            assert isinstance(effect.count, int)
            return [_without(after, list(c)) for c in combinations(candidates, effect.count)]
    elif isinstance(effect, LoseCharacterCard):
        mine = sorted(t for t in after.traits if t[0] == effect.axis)
        if effect.name is not None:
            mine = [t for t in mine if t[1] == effect.name]
        acted = bool(mine)
        if acted and (effect.count == "all" or len(mine) <= int(effect.count)):
            after.traits -= set(mine)
        elif acted:
            after.exact = False
    elif isinstance(effect, Roll):
        face = max(1, min(6, die))
        for outcome in effect.outcomes:
            if outcome.min <= face <= outcome.max:
                return predict(outcome.effects, state, face)
    else:
        from validator.engine.cards import ChangeSex, Choose

        if isinstance(effect, ChangeSex):
            after.sex = "female" if after.sex == "male" else "male"
        elif isinstance(effect, Choose):
            return [s for option in effect.options for s in predict(option, state, die)]
        else:
            after.exact = False
    if not acted:
        return _otherwise(effect, state, die)
    return [after]


def _otherwise(effect: OutcomeBase, state: Victim, die: int) -> list[Victim]:
    return predict(effect.otherwise, state, die) if effect.otherwise else [state]


def _without(victim: Victim, names: Sequence[str]) -> Victim:
    after = victim.copy()
    after.items = [i for i in after.items if i not in names]
    return after


def _matches(effect: LoseItems, name: str) -> bool:
    facts = ITEM_FACTS[name]
    if effect.slot is not None and facts.get("slot") != effect.slot:
        return False
    if effect.size == "big" and not facts.get("big"):
        return False
    if effect.size == "small" and facts.get("big"):
        return False
    return effect.tag is None or effect.tag in facts.get("tags", [])


PREDICTED_OUTCOMES = (
    LoseLevels,
    GainLevels,
    SetLevel,
    Death,
    DiscardHand,
    LoseItems,
    LoseCharacterCard,
    Roll,
)

# --------------------------------------------------------------------------------------------
# Running generated scenarios
# --------------------------------------------------------------------------------------------


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
        accept: Callable[[dict[str, Any]], str | None] | None = None,
        covers: Iterable[type[EffectBase] | str] = (),
    ) -> dict[str, Any] | None:
        """Run one generated scenario; a failure (or crash) fails the card, naming it."""
        document = {"name": f"{self.card.name}: {label}", **document}
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
            self.covered.add(item if isinstance(item, str) else _type_name(item))
        return result.values


def _type_name(effect_type: type[EffectBase]) -> str:
    return str(typing_literal(effect_type))


def typing_literal(effect_type: type[EffectBase]) -> str:
    import typing

    return str(typing.get_args(effect_type.model_fields["type"].annotation)[0])


def _player(name: str, level: int = 1, **extra: Any) -> dict[str, Any]:
    return {"name": name, "level": level, **extra}


def _trait_names(traits: Iterable[tuple[str, str]]) -> list[str]:
    return [" ".join(w[:1].upper() + w[1:] for w in name.split(" ")) for _, name in traits]


# --------------------------------------------------------------------------------------------
# Checks by kind
# --------------------------------------------------------------------------------------------


def _monster_checks(ctx: CheckContext, card: MonsterCard) -> None:
    name = card.name
    unconditional = sum(
        e.amount for e in card.effects if isinstance(e, Strength) and e.when is None
    )
    base = (card.level or 0) + unconditional
    plain = _player("Hero", 1)
    ctx.run(
        "strength against a plain character",
        {"players": [plain, _player("Rival")], "combat": {"fighter": "Hero", "monsters": [name]}},
        expect_values(monster_strength=base),
        covers=["monster"],
    )
    # Conditions tried both ways: the bonus applies with the trait, and only then.
    for effect in card.effects:
        if isinstance(effect, Strength) and effect.when is not None:
            traits = _traits([effect.when])
            if len(traits) != 1 or not isinstance(effect.when, _AxisCondition):
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
    # Killing it pays its levels and Treasure.
    if not any(type(e).__name__ in ("RefusesCombat",) for e in card.effects):
        level_only = any(type(e).__name__ == "LevelOnly" for e in card.effects)
        gained = (card.levels_gained or 0) + sum(
            e.amount for e in card.effects if isinstance(e, ExtraLevels) and e.when is None
        )
        treasures = (card.treasures or 0) + sum(
            e.amount for e in card.effects if isinstance(e, ExtraTreasures) and e.when is None
        )
        start = 1 if not level_only else min(9, base + 1)
        gear = [] if level_only else ["Validator Gauntlet"]
        if any(type(e).__name__ == "BeforeCombat" for e in card.effects):
            gear.append("Validator Trinket")  # something cheap to give up before the fight
        hero = _player("Hero", start, in_play=gear)
        if level_only and base + 1 > 9:
            ctx.report.warn("too strong to test a Level-only kill")
        else:
            expected_level = min(10, start + gained)
            ctx.run(
                "killing it pays levels and Treasure",
                {
                    "players": [hero, _player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [name]},
                    "steps": [{"resolve": True}],
                },
                expect_values(
                    outcome="won", treasures_drawn=treasures, levels={"Hero": expected_level}
                ),
                covers=["kill"] + (["level_only"] if level_only else []),
            )
    _runaway_checks(ctx, card, base)
    _bad_stuff_checks(ctx, card)


def _runaway_checks(ctx: CheckContext, card: MonsterCard, base: int) -> None:
    name = card.name
    fight = {"fighter": "Hero", "monsters": [name]}
    steps = [{"play": "Validator Rage", "by": "Rival", "on": name}, {"resolve": True}]
    rival = _player("Rival", 1, hand=["Validator Rage"])
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
            lambda v: None if v["outcome"] in ("caught", "dead") else f"outcome {v['outcome']}",
            covers=[CannotEscape],
        )
        return
    modifier = sum(e.amount for e in card.effects if isinstance(e, RunAway))
    pursuit = [e for e in card.effects if isinstance(e, NoPursuit)]
    level = max([e.max_level + 1 for e in pursuit] + [6])
    level = min(level, 9)
    needed = 5 - modifier
    if 1 <= needed <= 6:
        ctx.run(
            f"a roll of {needed} escapes ({modifier:+d})",
            {
                "players": [_player("Hero", level), rival],
                "combat": fight,
                "steps": steps,
                "dice": [needed, 1, 1, 1],
            },
            lambda v: None if v["outcome"] == "escaped" else f"outcome {v['outcome']}",
            covers=[RunAway] if modifier else [],
        )
    if 2 <= needed <= 7:
        ctx.run(
            f"a roll of {needed - 1} is caught",
            {
                "players": [_player("Hero", level), rival],
                "combat": fight,
                "steps": steps,
                "dice": [needed - 1, 1, 1, 1],
            },
            lambda v: None if v["outcome"] in ("caught", "dead") else f"outcome {v['outcome']}",
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
                    lambda v: (
                        None if v["outcome"] in ("caught", "dead") else f"outcome {v['outcome']}"
                    ),
                    covers=[NoPursuit],
                )
    for cost in card.effects:
        if isinstance(cost, OnEscape):
            if not all(isinstance(e, PREDICTED_OUTCOMES) for e in cost.effects):
                continue
            victim = Victim(level, [], 0, set())
            if _holds(cost.when, victim) is not True:
                continue
            expected = predict(cost.effects, victim, 6)
            ctx.run(
                "running costs even on escape",
                {
                    "players": [_player("Hero", level), rival],
                    "combat": fight,
                    "steps": steps,
                    "dice": [6, 6, 6],
                },
                expect_values(outcome="escaped", levels={"Hero": expected[0].level}),
                covers=[OnEscape],
            )


VICTIMS = {
    "fully equipped": (5, EQUIPMENT, 3),
    "with nothing": (5, [], 0),
    "at Level 1": (1, ["Validator Helm", "Validator Sword"], 2),
    "at Level 9": (9, ["Validator Mail", "Validator Boots", "Validator Cart"], 1),
}


def _bad_stuff_checks(ctx: CheckContext, card: MonsterCard) -> None:
    effects = list(card.bad_stuff)
    if not effects:
        return
    if not all(_predictable(e) for e in effects):
        names = sorted({typing_literal(type(e)) for e in effects if not _predictable(e)})
        ctx.report.warn(f"Bad Stuff ({', '.join(names)}) is run but its result is not predicted")
    before = [e for e in card.effects if isinstance(e, BeforeCombat)]
    escape_rules = [e for e in card.effects if isinstance(e, AutomaticEscape | NoPursuit)]
    traits = _traits(c for e in effects for c in _conditions(e))
    trait_sets: list[set[tuple[str, str]]] = [set()] + ([traits] if traits else [])
    rolls = sorted({o.min for e in _walk(effects) if isinstance(e, Roll) for o in e.outcomes}) or [
        3
    ]
    for label, (level, items, hand) in VICTIMS.items():
        if escape_rules and level <= max(
            (getattr(e, "max_level", 99) for e in escape_rules), default=0
        ):
            continue  # not pursued: no Bad Stuff to see
        for trait_set in trait_sets:
            for roll in rolls:
                victim = Victim(level, list(items), hand, set(trait_set))
                pre = [o for b in before for o in b.effects]
                outcomes = predict(pre + effects, victim, roll)
                costs = [o for e in card.effects if isinstance(e, OnEscape) for o in e.effects]
                if costs:
                    outcomes = [s for o in outcomes for s in predict(costs, o, roll)]
                hero = _player(
                    "Hero",
                    level,
                    in_play=_trait_names(trait_set) + list(items),
                    hand=["Validator Trinket"] * hand,
                )
                document = {
                    "players": [hero, _player("Rival", 1, hand=["Validator Rage"])],
                    "combat": {"fighter": "Hero", "monsters": [card.name]},
                    "steps": [
                        {"play": "Validator Rage", "by": "Rival", "on": card.name},
                        {"resolve": True},
                    ],
                    "dice": [1, roll, roll, roll],
                }
                suffix = f" ({', '.join(n for _, n in trait_set)})" if trait_set else ""
                ctx.run(
                    f"Bad Stuff on a victim {label}{suffix}, die {roll}",
                    document,
                    _bad_stuff_matches(outcomes),
                    covers=[typing_literal(type(e)) for e in _walk(effects) if _predictable(e)]
                    + ["bad_stuff"],
                )


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


def _predictable(effect: EffectBase) -> bool:
    from validator.engine.cards import ChangeSex, Choose

    return all(isinstance(e, (*PREDICTED_OUTCOMES, ChangeSex, Choose)) for e in _walk([effect]))


def _bad_stuff_matches(outcomes: list[Victim]) -> Callable[[dict[str, Any]], str | None]:
    def accept(values: dict[str, Any]) -> str | None:
        if values["outcome"] not in ("caught", "dead"):
            return f"expected to be caught, outcome {values['outcome']}"
        actual = {
            "level": values["levels"]["Hero"],
            "dead": "Hero" in values["dead"],
            "items": sorted(i for i in values["in_play"]["Hero"] if i in ITEM_FACTS),
        }
        for state in outcomes:
            if not state.exact:
                return None  # part of it is not predicted: the run itself must stay legal
            wanted = {"level": state.level, "dead": state.dead, "items": sorted(state.items)}
            if wanted == actual:
                return None
        options = " or ".join(
            f"Level {s.level}{', dead' if s.dead else ''}, items {sorted(s.items)}"
            for s in outcomes
        )
        return (
            f"expected {options}; got Level {actual['level']}"
            f"{', dead' if actual['dead'] else ''}, items {actual['items']}"
        )

    return accept


def expect_values(**wanted: Any) -> Callable[[dict[str, Any]], str | None]:
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
                isinstance(e.when, _AxisCondition)
                and (e.when.axis, e.when._name()) in allowed_traits
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
                        "combat": {"fighter": "Hero", "monsters": ["Validator Ogre"]},
                    },
                    expect_values(fighter_strength=3 + (card.bonus or 0) + bonus_extra),
                    covers=["bonus"] + ([Strength] if bonus_extra else []),
                )
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
                            _player("Rival", 1, hand=["Validator Rage"]),
                        ],
                        "combat": {"fighter": "Hero", "monsters": ["Validator Ogre"]},
                        "steps": [
                            {"play": "Validator Rage", "by": "Rival", "on": "Validator Ogre"},
                            {"resolve": True},
                        ],
                        "dice": [needed],
                    },
                    expect_values(outcome="escaped"),
                    covers=[RunAway],
                )


def _one_shot_checks(ctx: CheckContext, card: OneShotCard) -> None:
    name = card.name
    fight = {"fighter": "Hero", "monsters": ["Validator Ogre"]}
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
            type(e).__name__ == "KillMonster" for e in card.effects
        ):
            ctx.run(
                "its bonus for the monster",
                {
                    "players": [_player("Hero", 2), _player("Rival", 1, hand=[name])],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Rival", "on": "Validator Ogre"}],
                },
                expect_values(fighter_strength=2, monster_strength=5 + card.bonus),
                covers=["one_shot_bonus"],
            )
    for effect in card.effects:
        kind = typing_literal(type(effect))
        if kind == "remove_monster":
            ctx.run(
                "the monster leaves without a kill",
                {
                    "players": [_player("Hero", 2, hand=[name]), _player("Rival")],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Hero", "on": "Validator Ogre"}],
                },
                expect_values(levels={"Hero": 2}, treasures_drawn=0),
                covers=[kind],
            )
        elif kind == "double_strength":
            ctx.run(
                "doubles the player's strength",
                {
                    "players": [_player("Hero", 3, hand=[name]), _player("Rival")],
                    "combat": fight,
                    "steps": [{"play": name, "by": "Hero"}],
                },
                expect_values(fighter_strength=6),
                covers=[kind],
            )
        elif kind == "automatic_escape":
            ctx.run(
                "an automatic escape",
                {
                    "players": [
                        _player("Hero", 6, hand=[name]),
                        _player("Rival", 1, hand=["Validator Rage"]),
                    ],
                    "combat": fight,
                    "steps": [
                        {"play": "Validator Rage", "by": "Rival", "on": "Validator Ogre"},
                        {"play": name, "by": "Hero"},
                        {"resolve": True},
                    ],
                    "dice": [1, 1],
                },
                expect_values(outcome="escaped", levels={"Hero": 6}),
                covers=[kind],
            )
        elif kind == "strength" and isinstance(effect, Strength) and effect.per is not None:
            traits = _traits(
                [effect.per.players_on_side] if isinstance(effect.per, PlayersOnSide) else []
            )
            if len(traits) == 1:
                ctx.run(
                    "its bonus per matching player",
                    {
                        "players": [
                            _player("Hero", 2, hand=[name], in_play=_trait_names(traits)),
                            _player("Rival"),
                        ],
                        "combat": fight,
                        "steps": [{"play": name, "by": "Hero"}],
                    },
                    expect_values(fighter_strength=2 + effect.amount),
                    covers=[kind],
                )
                ctx.run(
                    "nothing without one",
                    {
                        "players": [_player("Hero", 2, hand=[name]), _player("Rival")],
                        "combat": fight,
                        "steps": [{"play": name, "by": "Hero"}],
                    },
                    expect_values(fighter_strength=2),
                )


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
            "combat": {"fighter": "Hero", "monsters": ["Validator Ogre"]},
            "steps": [{"play": name, "by": "Rival", "on": "Validator Ogre"}, {"resolve": True}],
        },
        expect_values(monster_strength=strength, outcome="won", treasures_drawn=treasures),
        covers=["enhancer"],
    )


def _curse_checks(ctx: CheckContext, card: CurseCard) -> None:
    name = card.name
    outcomes = [e for e in card.effects if isinstance(e, OutcomeBase)]
    lasting = [e for e in card.effects if not isinstance(e, OutcomeBase)]
    if outcomes and all(_predictable(e) for e in outcomes):
        traits = _traits(c for e in outcomes for c in _conditions(e))
        for label, (level, items, hand) in VICTIMS.items():
            trait_sets: list[set[tuple[str, str]]] = [set()] + ([traits] if traits else [])
            for trait_set in trait_sets:
                victim = Victim(level, list(items), hand, set(trait_set))
                expected = predict(outcomes, victim, 3)
                hero = _player(
                    "Hero",
                    level,
                    in_play=_trait_names(trait_set) + list(items),
                    hand=["Validator Trinket"] * hand,
                )
                ctx.run(
                    f"cast on a victim {label}",
                    {
                        "players": [hero, _player("Rival", 1, hand=[name])],
                        "steps": [{"play": name, "by": "Rival", "on": "Hero"}],
                        "dice": [3],
                    },
                    _state_matches(expected),
                    covers=[typing_literal(type(e)) for e in _walk(outcomes)],
                )
    elif outcomes:
        ctx.run(
            "cast on a victim",
            {
                "players": [
                    _player("Hero", 5, in_play=EQUIPMENT),
                    _player("Rival", 1, hand=[name]),
                ],
                "steps": [{"play": name, "by": "Rival", "on": "Hero"}],
                "dice": [3, 3],
            },
        )
        names = sorted({typing_literal(type(e)) for e in outcomes if not _predictable(e)})
        ctx.report.warn(f"the curse's {', '.join(names)} is run but its result is not predicted")
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
            if isinstance(effect, Strength) and effect.duration == "next_combat":
                ctx.run(
                    "its penalty applies in the next combat",
                    {
                        "players": [_player("Hero", 5), _player("Rival", 1, hand=[name])],
                        "combat": {"fighter": "Hero", "monsters": ["Validator Ogre"]},
                        "steps": [{"play": name, "by": "Rival", "on": "Hero"}],
                    },
                    expect_values(fighter_strength=5 + effect.amount),
                    covers=[Strength],
                )


def _state_matches(expected: list[Victim]) -> Callable[[dict[str, Any]], str | None]:
    def accept(values: dict[str, Any]) -> str | None:
        actual = (
            values["levels"]["Hero"],
            "Hero" in values["dead"],
            sorted(i for i in values["in_play"]["Hero"] if i in ITEM_FACTS),
        )
        for state in expected:
            if not state.exact or (state.level, state.dead, sorted(state.items)) == actual:
                return None
        return (
            f"expected Level {expected[0].level}, items {sorted(expected[0].items)}; "
            f"got Level {actual[0]}, items {actual[2]}"
        )

    return accept


def _level_card_checks(ctx: CheckContext, card: LevelCard) -> None:
    name = card.name
    gain = sum(e.amount for e in card.effects if isinstance(e, GainLevels))
    extra: dict[str, Any] = {}
    if card.requires is not None and card.requires.key == "has_in_play":
        extra = {"in_play": ["Validator Henchman"]}
    if card.requires is None or extra or card.requires.key == "not":
        ctx.run(
            "a level for its player",
            {
                "players": [_player("Hero", 3, hand=[name], **extra), _player("Rival", 5)],
                "steps": [{"play": name, "by": "Hero"}],
            },
            expect_values(levels={"Hero": 3 + gain}),
            covers=[GainLevels],
        )
    ctx.run(
        "never the winning level",
        {
            "players": [_player("Hero", 9, hand=[name], **extra), _player("Rival", 9)],
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"error": True},
        },
        expect_values(levels={"Hero": 9}),
    )
    if card.requires is not None and card.requires.key in ("has_in_play", "not"):
        blocked = {
            "players": [_player("Hero", 3, hand=[name]), _player("Rival", 1)],
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"error": "playable only by"},
        }
        ctx.run("refused when its condition fails", blocked, covers=["requires"])
    for effect in card.effects:
        if typing_literal(type(effect)) == "discard_card":
            ctx.covered.add("discard_card")


def _character_checks(ctx: CheckContext, card: CharacterCard) -> None:
    name = card.name
    fight = {"fighter": "Hero", "monsters": ["Validator Ogre"]}
    rage = [{"play": "Validator Rage", "by": "Rival", "on": "Validator Ogre"}, {"resolve": True}]
    for effect in card.effects:
        if isinstance(effect, RunAway) and effect.when is None and effect.per is None:
            needed = 5 - effect.amount
            ctx.run(
                f"{effect.amount:+d} to Run Away",
                {
                    "players": [
                        _player("Hero", 6, in_play=[name]),
                        _player("Rival", 1, hand=["Validator Rage"]),
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
                            _player("Rival", 1, hand=["Validator Rage"]),
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
        monster = "Validator Ogre"
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
                        _player("Rival", 1, hand=["Validator Rage"]),
                    ],
                    "combat": fight,
                    "steps": [
                        {"play": "Validator Rage", "by": "Rival", "on": "Validator Ogre"},
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


KIND_CHECKS: dict[type[CardBase], Callable[[CheckContext, Any], None]] = {
    MonsterCard: _monster_checks,
    ItemCard: _item_checks,
    OneShotCard: _one_shot_checks,
    MonsterEnhancerCard: _enhancer_checks,
    CurseCard: _curse_checks,
    LevelCard: _level_card_checks,
    CharacterCard: _character_checks,
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
        missing = sorted(note_numbers - numbers - {"1"}, key=lambda n: int(n) if n.isdigit() else 0)
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
    for extra in EXTRA_REFERENCES():
        if extra.name.casefold() not in names:
            library.add("validator", extra)
    for axis, name in _traits(card.all_conditions()):
        trait = _trait_card(axis, name)
        if trait.name.casefold() not in names:
            library.add("validator", trait)
            names.add(trait.name.casefold())
    return library


def check_card(card: CardBase, set_code: str = "") -> CardReport:
    """Exercise one card in the engine and report what was seen to work."""
    report = CardReport(set_code, card.name, card.kind_name, card.encoding.status)
    if card.encoding.status == "partial":
        clauses = getattr(card.encoding, "clauses", [])
        report.warn(f"partly encoded; not yet encoded: {'; '.join(clauses)}")
    elif card.encoding.status == "text_only":
        report.warn(f"not encoded: {getattr(card.encoding, 'reason', '')}")
    text_check(card, report)
    ctx = CheckContext(card, set_code, report, _library_for(card, set_code))
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
    return [check_card(card, code) for code, card in cards]


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


def card_document(card: CardBase) -> dict[str, Any]:
    return dump_card(card)
