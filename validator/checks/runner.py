"""The runner: `CheckContext.run` runs one generated scenario through the engine; a failed
expectation, an invalid scenario or an engine crash becomes the card's failure, with the
scenario that caused it. Coverage is earned, never declared: an effect type counts as exercised
only when a run that states an independent expectation (an `accept` test or the document's
`expect`) passed (`covers`), or every run of a group did (`CheckContext.together`). With it,
what every family of checks shares to write and judge scenarios: a player's document, the effect
tree walked, and the acceptance tests (`expect_values`, and `table_matches` against the
oracle's predicted tables).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, get_args

from validator.checks.oracle import PREDICTED_OUTCOMES, Victim
from validator.checks.references import ITEM_FACTS, title_case
from validator.checks.reports import CardReport
from validator.engine import (
    CardBase,
    CardLibrary,
    ConditionBase,
    EffectBase,
    ScenarioDocument,
    ScenarioError,
    run_scenario,
)

Accept = Callable[[dict[str, Any]], str | None]
Covers = Iterable[type[EffectBase] | str]


class NoExpectation(ValueError):
    """A check asked for coverage from a run that states no expectation (a bug in the check)."""


def predicts(accept: Accept | None) -> bool:
    """Whether an acceptance test states an expectation (`table_matches` does not when part
    of the outcome is not predicted: the run then only has to stay legal)."""
    return accept is not None and getattr(accept, "predicts", True)


@dataclass
class CheckContext:
    card: CardBase
    set_code: str
    report: CardReport
    library: CardLibrary
    covered: set[str] = field(default_factory=set)
    # The runs of each open `together` group: whether each passed with an expectation.
    _groups: list[list[bool]] = field(default_factory=list)

    def run(
        self,
        label: str,
        document: dict[str, Any],
        accept: Accept | None = None,
        covers: Covers = (),
    ) -> dict[str, Any] | None:
        """Run one generated scenario; a failure (or crash) fails the card, naming it. The
        effect types in `covers` count as exercised only if it passed and stated what must
        happen: asking for coverage from a run without `accept` or `expect` is refused."""
        covers = list(covers)
        expected = bool(document.get("expect")) or predicts(accept)
        if covers and accept is None and not document.get("expect"):
            raise NoExpectation(f"{label}: a run without an expectation cannot cover {covers}")
        values = self._run(label, document, accept)
        for group in self._groups:
            group.append(values is not None and expected)
        if values is not None and expected:
            self._cover(covers)
        return values

    @contextmanager
    def together(self, covers: Covers) -> Iterator[None]:
        """Cover the effect types once every run inside passed with an expectation (and at
        least one ran): an effect tried both ways is exercised only when both ways held."""
        group: list[bool] = []
        self._groups.append(group)
        try:
            yield
        finally:
            self._groups.remove(group)
        if group and all(group):
            self._cover(covers)

    def unexercised(self) -> None:
        """A run the open groups need could not be staged: they cover nothing."""
        for group in self._groups:
            group.append(False)

    def _cover(self, covers: Covers) -> None:
        for item in covers:
            self.covered.add(item if isinstance(item, str) else typing_literal(item))

    def _run(
        self, label: str, document: dict[str, Any], accept: Accept | None
    ) -> dict[str, Any] | None:
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
        return result.values


def typing_literal(effect_type: type[EffectBase]) -> str:
    """The `type` an effect's documents give (the literal of its model's field)."""
    return str(get_args(effect_type.model_fields["type"].annotation)[0])


def player(name: str, level: int = 1, **extra: Any) -> dict[str, Any]:
    """A player's document for a scenario, `extra` keys (hand, in_play...) added."""
    return {"name": name, "level": level, **extra}


def trait_names(traits: Iterable[tuple[str, str]]) -> list[str]:
    """The card names of these (axis, name) traits, as a player's in_play lists them."""
    return [title_case(name) for _, name in traits]


def conditions_of(effect: EffectBase) -> Iterable[ConditionBase]:
    """Every condition of the effect and of the effects nested in it."""
    for e in walk_effects([effect]):
        yield from e.conditions()


def walk_effects(effects: Iterable[EffectBase]) -> list[EffectBase]:
    """The effects and every effect nested in them, breadth first."""
    out: list[EffectBase] = []
    stack = list(effects)
    while stack:
        effect = stack.pop(0)
        out.append(effect)
        stack.extend(effect.children())
    return out


def kinds_of(effects: Iterable[EffectBase]) -> list[type[EffectBase] | str]:
    """The `type` of each effect and of each effect nested in it."""
    return [typing_literal(type(e)) for e in walk_effects(effects)]


def is_predictable(effect: EffectBase) -> bool:
    """Whether the oracle predicts the effect and every effect nested in it."""
    return all(isinstance(e, PREDICTED_OUTCOMES) for e in walk_effects([effect]))


def table_matches(start: Victim, states: list[Victim], caught: bool = False) -> Accept:
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

    exact = all(s.exact for s in states)

    def accept(values: dict[str, Any]) -> str | None:
        if caught and values["outcome"] not in ("caught", "dead"):
            return f"expected to be caught, outcome {values['outcome']}"
        if not exact:
            return None  # part of it is not predicted: the run itself must stay legal
        got = actual(values)
        if any(expected(s) == got for s in states):
            return None
        more = f" (or {len(states) - 1} other choices)" if len(states) > 1 else ""
        return f"expected {describe(expected(states[0]))}{more}; got {describe(got)}"

    return Judged(accept, predicts=exact)


@dataclass
class Judged:
    """An acceptance test that says whether it predicts the result (see `predicts`)."""

    test: Accept
    predicts: bool

    def __call__(self, values: dict[str, Any]) -> str | None:
        return self.test(values)


def expect_values(**wanted: Any) -> Accept:
    """The values named, as given (a dict: those of its keys). Nothing named is no test."""
    if not wanted:
        raise NoExpectation("expect_values() names nothing to expect")

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


def expect_caught(values: dict[str, Any]) -> str | None:
    """An acceptance test: the fighter was caught (or died)."""
    return None if values["outcome"] in ("caught", "dead") else f"outcome {values['outcome']}"


def ended_without_kill(level: int, treasures: int, hand: int | None = None) -> Accept:
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
