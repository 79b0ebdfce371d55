"""The mutation report: figures overall and per module, then every survivor with its diff, the
cards whose checks reach its lines, and the committed explanation of why it lives on.

Kill rates count every mutant in the denominator, survivors explained or not: an explanation
says why a survivor is acceptable, it does not turn it into a kill; the budgets are judged on
these. Beside them the report gives the rates over the observable mutants (every mutant but
the explained survivors: what a card or a rule of the five sets could show), the figure the
literature calls the mutation score when the left-out ones are equivalent. A mutant that hangs
counts as caught by the run that hung (a run that never ends fails CI as surely as a failed
card).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from validator.mutants.runner import Outcome

SURVIVORS_FILE = Path(__file__).with_name("survivors.yaml")
VALIDATOR_BUDGET = 0.90
WITH_SCENARIOS_BUDGET = 0.97
# equivalent: no program behaves differently; choice: the behaviour changes only among moves
# the rules leave to a player (which item a Thief takes, which option a victim picks), so no
# rule can tell the two apart; unobservable: it changes what the rules decide, but no card
# of the five sets nor any synthetic card the language checks build can make it show.
EXPLANATION_KINDS = ("equivalent", "choice", "unobservable")
SHOWN_CARDS = 8


@dataclass(frozen=True)
class Explanation:
    kind: str  # one of EXPLANATION_KINDS
    why: str


class SurvivorsFileError(Exception):
    pass


def load_explanations(path: Path = SURVIVORS_FILE) -> dict[str, Explanation]:
    """The committed list of survivors and why each is left (a file of the project's own)."""
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    explanations: dict[str, Explanation] = {}
    for index, entry in enumerate(data):
        where = f"{path.name}: entry {index + 1}"
        if not isinstance(entry, dict) or not {"id", "kind", "why"} <= entry.keys():
            raise SurvivorsFileError(f"{where}: needs id, kind and why")
        if entry["kind"] not in EXPLANATION_KINDS:
            raise SurvivorsFileError(
                f"{where}: kind {entry['kind']!r} is not one of {', '.join(EXPLANATION_KINDS)}"
            )
        if entry["id"] in explanations:
            raise SurvivorsFileError(f"{where}: {entry['id']} is explained twice")
        explanations[entry["id"]] = Explanation(entry["kind"], str(entry["why"]).strip())
    return explanations


@dataclass
class Figures:
    mutants: int = 0
    killed: int = 0  # by the validator
    killed_by_scenarios: int = 0  # only by the scenario files
    survived: int = 0
    timed_out: int = 0
    errors: int = 0
    caught_by_validator: int = 0
    caught: int = 0
    explained: int = 0  # survivors the survivors file explains

    def add(self, outcome: Outcome, *, explained: bool = False) -> None:
        self.mutants += 1
        self.explained += outcome.status == "survived" and explained
        self.killed += outcome.status == "killed"
        self.killed_by_scenarios += outcome.status == "killed by scenarios"
        self.survived += outcome.status == "survived"
        self.timed_out += outcome.status == "timed out"
        self.errors += outcome.status == "error"
        self.caught_by_validator += outcome.caught_by_validator
        self.caught += outcome.caught

    @property
    def validator_rate(self) -> float:
        return self.caught_by_validator / self.mutants if self.mutants else 1.0

    @property
    def rate(self) -> float:
        return self.caught / self.mutants if self.mutants else 1.0

    @property
    def observable(self) -> int:
        return self.mutants - self.explained

    @property
    def observable_validator_rate(self) -> float:
        return self.caught_by_validator / self.observable if self.observable else 1.0

    @property
    def observable_rate(self) -> float:
        return self.caught / self.observable if self.observable else 1.0

    def as_json(self) -> dict[str, Any]:
        return {
            "mutants": self.mutants,
            "killed_by_validator": self.killed,
            "killed_by_scenarios_only": self.killed_by_scenarios,
            "survived": self.survived,
            "timed_out": self.timed_out,
            "errors": self.errors,
            "kill_rate_validator": round(self.validator_rate, 4),
            "kill_rate_with_scenarios": round(self.rate, 4),
            "explained_survivors": self.explained,
            "observable_kill_rate_validator": round(self.observable_validator_rate, 4),
            "observable_kill_rate_with_scenarios": round(self.observable_rate, 4),
        }


@dataclass
class Report:
    outcomes: list[Outcome]
    explanations: dict[str, Explanation]
    sampled: bool
    seconds: float
    workers: int

    def figures(self) -> tuple[Figures, dict[str, Figures]]:
        total = Figures()
        per_module: dict[str, Figures] = {}
        for outcome in self.outcomes:
            explained = outcome.mutant.id in self.explanations
            total.add(outcome, explained=explained)
            per_module.setdefault(outcome.mutant.module, Figures()).add(
                outcome, explained=explained
            )
        return total, dict(sorted(per_module.items()))

    def survivors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "survived"]

    def unexplained(self) -> list[Outcome]:
        return [o for o in self.survivors() if o.mutant.id not in self.explanations]

    def stale_explanations(self) -> list[str]:
        """Explained ids that are no longer survivors of this run (killed now, or gone)."""
        if self.sampled:
            return []
        surviving = {o.mutant.id for o in self.survivors()}
        return sorted(set(self.explanations) - surviving)

    def budgets_met(self) -> bool:
        total, _ = self.figures()
        return total.validator_rate >= VALIDATOR_BUDGET and total.rate >= WITH_SCENARIOS_BUDGET

    def ok(self) -> bool:
        total, _ = self.figures()
        if total.errors or self.unexplained():
            return False
        return self.sampled or self.budgets_met()

    # Output -----------------------------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        total, per_module = self.figures()
        return {
            "summary": total.as_json(),
            "modules": {name: f.as_json() for name, f in per_module.items()},
            "budgets": {"validator": VALIDATOR_BUDGET, "with_scenarios": WITH_SCENARIOS_BUDGET},
            "sampled": self.sampled,
            "seconds": round(self.seconds, 1),
            "workers": self.workers,
            "operators": dict(Counter(o.mutant.operator for o in self.outcomes)),
            "mutants": [self._outcome_json(o) for o in self.outcomes],
            "stale_explanations": self.stale_explanations(),
        }

    def _outcome_json(self, outcome: Outcome) -> dict[str, Any]:
        explanation = self.explanations.get(outcome.mutant.id)
        return {
            "id": outcome.mutant.id,
            "module": outcome.mutant.module,
            "function": outcome.mutant.function,
            "operator": outcome.mutant.operator,
            "line": outcome.mutant.line,
            "original": outcome.mutant.original,
            "mutated": outcome.mutant.mutated,
            "status": outcome.status,
            "phase": outcome.phase,
            "failures": outcome.failures,
            "seconds": round(outcome.seconds, 2),
            "cards_reaching": len(outcome.reached_by),
            "scenarios_reaching": len(outcome.scenarios_reaching),
            "explanation": None
            if explanation is None
            else {"kind": explanation.kind, "why": explanation.why},
        }

    def text(self, *, diffs: bool = True) -> str:
        total, per_module = self.figures()
        lines = [
            f"{'module':<18}{'mutants':>8}{'killed':>8}{'+scen.':>8}{'survived':>9}"
            f"{'timeout':>8}{'error':>6}{'validator':>11}{'+scenarios':>11}"
        ]
        rows = [*per_module.items(), ("all", total)]
        for name, f in rows:
            lines.append(
                f"{name:<18}{f.mutants:>8}{f.killed:>8}{f.killed_by_scenarios:>8}"
                f"{f.survived:>9}{f.timed_out:>8}{f.errors:>6}"
                f"{f.validator_rate:>10.1%} {f.rate:>10.1%}"
            )
        lines.append("")
        lines.append(
            f"Kill rate, validator alone: {total.validator_rate:.1%} (budget "
            f"{VALIDATOR_BUDGET:.0%}); validator and scenario files: {total.rate:.1%} (budget "
            f"{WITH_SCENARIOS_BUDGET:.0%})"
            + (" [a sample: budgets apply to the full run]" if self.sampled else "")
        )
        lines.append(
            f"Over the {total.observable} observable mutants ({total.explained} explained "
            f"survivors left out): validator alone {total.observable_validator_rate:.1%}, "
            f"validator and scenario files {total.observable_rate:.1%}"
        )
        lines.append(
            f"{total.mutants} mutants in {self.seconds:.0f} s on {self.workers} worker(s); "
            f"{len(self.survivors())} survived, {len(self.unexplained())} of them unexplained "
            f"(explanations: {SURVIVORS_FILE.name})"
        )
        for outcome in self.outcomes:
            if outcome.status == "error":
                lines += ["", f"ERROR {outcome.mutant.id}", *outcome.failures]
        for outcome in self.survivors():
            lines += ["", *self._survivor_lines(outcome, diffs=diffs)]
        stale = self.stale_explanations()
        if stale:
            lines += ["", "Explained in the survivors file but no longer surviving:"]
            lines += [f"  {mutant_id}" for mutant_id in stale]
        return "\n".join(lines)

    def _survivor_lines(self, outcome: Outcome, *, diffs: bool) -> list[str]:
        mutant = outcome.mutant
        explanation = self.explanations.get(mutant.id)
        verdict = (
            f"explained ({explanation.kind}): {explanation.why}" if explanation else "UNEXPLAINED"
        )
        cards = outcome.reached_by
        shown = ", ".join(cards[:SHOWN_CARDS]) + (
            f" and {len(cards) - SHOWN_CARDS} more" if len(cards) > SHOWN_CARDS else ""
        )
        lines = [
            f"SURVIVED {mutant.id} (line {mutant.line}, {mutant.operator}) {verdict}",
            f"  cards whose checks reach it: {shown or 'none'}",
            f"  scenario files reaching it: {len(outcome.scenarios_reaching)}",
        ]
        if diffs:
            lines += ["  " + line for line in mutant.diff().splitlines()]
        return lines


def write_json(report: Report, path: Path) -> None:
    path.write_text(json.dumps(report.as_json(), indent=1, sort_keys=True), encoding="utf-8")
