"""What judges a mutant: the validator over every card of every set (what `check_cards` and
`manage.py validate_cards` run, including the whole games, and the synthetic cards of the effect
language, `validator/checks/language/`), then the scenario files.

`observe` runs both on the unmutated engine while recording which lines of the rules modules
each card's checks and each scenario file reach (with `sys.monitoring`, so the cost is one
callback per line per card). A mutant is judged only by the cards and scenario files that reach
its lines, the others being certain to behave as before (a line that never runs cannot), and
the report says which cards should have noticed each survivor.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType
from typing import Any

from validator.checks import CardReport, LanguageCheck, add_real_play, check_card, language_checks
from validator.engine import CardBase, forget_memos, load_set_file, run_paths
from validator.mutants.operators import ENGINE_DIR, RULES_MODULES

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
WHOLE_GAMES = "(whole games)"
Line = tuple[str, int]  # (module, line)


@dataclass
class Suite:
    cards: list[tuple[str, CardBase]]
    scenario_files: list[Path]
    # The validator's checks of the effect language on synthetic cards: part of the validator,
    # so a mutant one of them fails is killed by the validator (observed under `check.key`).
    language: list[LanguageCheck] = field(default_factory=language_checks)


@dataclass
class Verdict:
    """What the validator, then the scenarios, made of one engine."""

    card_failures: list[str] = field(default_factory=list)
    scenario_failures: list[str] = field(default_factory=list)


def load_suite(fixtures: Path = FIXTURES) -> Suite:
    cards: list[tuple[str, CardBase]] = []
    for path in sorted((fixtures / "sets").glob("*.yaml")):
        cards += [(path.stem, card) for card in load_set_file(path).cards]
    scenario_dir = fixtures / "scenarios"
    files = sorted(p for p in scenario_dir.rglob("*.y*ml") if p.suffix in (".yaml", ".yml"))
    return Suite(cards, files)


def validator_failures(
    suite: Suite, cards: set[str] | None = None, *, games: bool = True
) -> list[str]:
    """Each failing card, with the validator's first failure message. With `cards`, only those
    cards' checks run (and whole games only with `games`): what `check_cards` does, less what
    cannot see the change being judged."""
    reports = [
        check_card(card, code)
        if cards is None or card_key(code, card) in cards
        else CardReport(code, card.name, card.kind_name, card.encoding.status)
        for code, card in suite.cards
    ]
    if games:
        add_real_play(reports, suite.cards, deck=suite.cards)
    reports += [c.run() for c in suite.language if cards is None or c.key in cards]
    failures = []
    for report in reports:
        if report.status == "fail":
            first = next((m for m in report.messages if not m.startswith("warn:")), "")
            failures.append(f"{report.set_code} / {report.name}: {first}")
    return failures


def scenario_failures(suite: Suite, files: set[str] | None = None) -> list[str]:
    chosen = [p for p in suite.scenario_files if files is None or scenario_key(p) in files]
    failures = []
    for result in run_paths(chosen) if chosen else []:
        if not result.passed:
            failures.append(f"{result.name}: {'; '.join(result.failures)[:300]}")
    return failures


def card_key(code: str, card: CardBase) -> str:
    return f"{code} / {card.name}"


def scenario_key(path: Path) -> str:
    return str(path.relative_to(FIXTURES.parent))


def forget_caches() -> None:
    """Empty the engine's memo tables (`validator/engine/memo.py`, and any module-level dict
    named *_CACHE), so that each card's run reaches every line its result depends on rather
    than a value an earlier card left."""
    forget_memos()
    for module in RULES_MODULES:
        namespace = vars(sys.modules[f"validator.engine.{module}"])
        for name, value in namespace.items():
            if name.endswith("_CACHE") and isinstance(value, dict):
                value.clear()


# --------------------------------------------------------------------------------------------
# Which lines each card and each scenario reaches
# --------------------------------------------------------------------------------------------


@dataclass
class Reach:
    """For every line of the rules modules reached: the cards and scenario files reaching it."""

    by_validator: dict[Line, set[str]] = field(default_factory=lambda: defaultdict(set))
    by_scenarios: dict[Line, set[str]] = field(default_factory=lambda: defaultdict(set))

    def observers(self, module: str, first: int, last: int) -> tuple[set[str], set[str]]:
        cards: set[str] = set()
        scenarios: set[str] = set()
        for line in range(first, last + 1):
            cards |= self.by_validator.get((module, line), set())
            scenarios |= self.by_scenarios.get((module, line), set())
        return cards, scenarios

    def as_json(self) -> dict[str, Any]:
        return {
            "validator": [[m, n, sorted(o)] for (m, n), o in self.by_validator.items()],
            "scenarios": [[m, n, sorted(o)] for (m, n), o in self.by_scenarios.items()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reach:
        reach = cls()
        for m, n, observers in data["validator"]:
            reach.by_validator[(m, n)] = set(observers)
        for m, n, observers in data["scenarios"]:
            reach.by_scenarios[(m, n)] = set(observers)
        return reach


_RULES_FILES = {str(ENGINE_DIR / (m.replace(".", "/") + ".py")): m for m in RULES_MODULES}


@contextmanager
def _recording(into: dict[Line, set[str]]) -> Iterator[list[str]]:
    """Record lines of the rules modules reached while the observer named in the yielded list
    (set by the caller) runs."""
    monitoring = sys.monitoring
    tool = monitoring.COVERAGE_ID
    current: list[str] = [""]

    def on_line(code: CodeType, line: int) -> Any:
        module = _RULES_FILES.get(code.co_filename)
        if module is not None:
            into[(module, line)].add(current[0])
        return monitoring.DISABLE  # once per location per observer: restart_events re-arms it

    monitoring.use_tool_id(tool, "cardsite-mutants")
    monitoring.register_callback(tool, monitoring.events.LINE, on_line)
    monitoring.set_events(tool, monitoring.events.LINE)
    try:
        yield current
    finally:
        monitoring.set_events(tool, 0)
        monitoring.register_callback(tool, monitoring.events.LINE, None)
        monitoring.free_tool_id(tool)


def observe(suite: Suite) -> tuple[Verdict, Reach]:
    """The unmutated engine's verdict, and which lines each card and scenario reaches."""
    reach = Reach()
    with _recording(reach.by_validator) as current:
        reports = []
        for code, card in suite.cards:
            current[0] = card_key(code, card)
            forget_caches()
            sys.monitoring.restart_events()
            reports.append(check_card(card, code))
        current[0] = WHOLE_GAMES
        forget_caches()
        sys.monitoring.restart_events()
        add_real_play(reports, suite.cards, deck=suite.cards)
        for check in suite.language:
            current[0] = check.key
            forget_caches()
            sys.monitoring.restart_events()
            reports.append(check.run())
    with _recording(reach.by_scenarios) as current:
        for path in suite.scenario_files:
            current[0] = scenario_key(path)
            forget_caches()
            sys.monitoring.restart_events()
            run_paths([path])
    forget_caches()
    verdict = Verdict(
        card_failures=[f"{r.set_code} / {r.name}" for r in reports if r.status == "fail"],
        scenario_failures=scenario_failures(suite),
    )
    return verdict, reach
