"""The command line of the mutation run (`python -m validator.mutants`, `manage.py mutants`)."""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

from validator.mutants.operators import OPERATORS, RULES_MODULES, Mutant, rules_mutants
from validator.mutants.planted import PLANTED, planted_mutant
from validator.mutants.report import (
    VALIDATOR_BUDGET,
    WITH_SCENARIOS_BUDGET,
    Report,
    load_explanations,
    write_json,
)
from validator.mutants.runner import Outcome, baseline, run_mutants
from validator.mutants.suite import load_suite

DESCRIPTION = (
    "Plant small bugs (mutants) in the engine's rules modules, one at a time, and run "
    "the validator over every card, then the scenario files, against each. Prints the "
    f"kill rates (budgets: {VALIDATOR_BUDGET:.0%} by the validator alone, "
    f"{WITH_SCENARIOS_BUDGET:.0%} with the scenario files) and every survivor with its "
    "diff. Exits 1 when a survivor is not explained in validator/mutants/survivors.yaml, "
    "a mutant could not be planted, or (full runs) a budget is missed."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options, shared by `python -m validator.mutants` and `manage.py mutants`."""
    parser.add_argument(
        "--module",
        action="append",
        choices=RULES_MODULES,
        metavar="MODULE",
        help=f"only this rules module (repeatable): {', '.join(RULES_MODULES)}",
    )
    parser.add_argument(
        "--operator",
        action="append",
        choices=OPERATORS,
        metavar="OPERATOR",
        help=f"only this kind of mutation (repeatable): {', '.join(OPERATORS)}",
    )
    parser.add_argument("--mutant", action="append", metavar="ID", help="only this mutant")
    parser.add_argument(
        "--planted",
        action="append",
        choices=sorted(PLANTED),
        metavar="NAME",
        help=f"a named bug planted by hand (repeatable): {', '.join(sorted(PLANTED))}",
    )
    parser.add_argument("--sample", type=int, metavar="N", help="a random sample of N mutants")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="children at once (cores)"
    )
    parser.add_argument(
        "--timeout", type=float, help="seconds per mutant (default: 10 x the unmutated run)"
    )
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report here")
    parser.add_argument("--no-diffs", action="store_true", help="survivors without their diffs")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


class UsageError(Exception):
    pass


def _select(args: argparse.Namespace) -> list[Mutant]:
    modules = tuple(args.module) if args.module else RULES_MODULES
    operators = frozenset(args.operator) if args.operator else None
    mutants = [m for m in rules_mutants(modules) if operators is None or m.operator in operators]
    if args.planted:
        return [planted_mutant(name) for name in args.planted]
    if args.mutant:
        known = {m.id: m for m in mutants}
        missing = [i for i in args.mutant if i not in known]
        if missing:
            raise UsageError(f"no mutant {', '.join(missing)} (--list shows them)")
        mutants = [known[i] for i in args.mutant]
    if args.sample is not None:
        if args.sample < 1:
            raise UsageError("--sample must be at least 1")
        mutants = sorted(
            random.Random(args.seed).sample(mutants, min(args.sample, len(mutants))),
            key=lambda m: (m.module, m.line, m.id),
        )
    return mutants


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m validator.mutants", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except UsageError as exc:
        parser.error(str(exc))


def run(args: argparse.Namespace) -> int:
    """The mutation run; its exit status (0: every survivor explained, budgets met)."""
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    mutants = _select(args)
    if args.list:
        for m in mutants:
            print(f"{m.id}  line {m.line}: {' '.join(m.original.split())[:60]} -> {m.mutated[:60]}")
        print(f"{len(mutants)} mutants", file=sys.stderr)
        return 0
    explanations = load_explanations()
    started = time.monotonic()
    suite = load_suite()
    print(
        f"Judging the unmutated engine: {len(suite.cards)} cards, "
        f"{len(suite.language)} checks of the effect language, "
        f"{len(suite.scenario_files)} scenario files...",
        file=sys.stderr,
    )
    cards_failing, scenarios_failing, reach, seconds = baseline(suite)
    if cards_failing or scenarios_failing:
        print("The unmutated engine already fails; mend that first:", file=sys.stderr)
        for failure in cards_failing + scenarios_failing:
            print(f"  {failure}", file=sys.stderr)
        return 2
    timeout = args.timeout or max(30.0, 10 * seconds)
    print(
        f"One judging takes {seconds:.1f} s; {len(mutants)} mutants on {args.workers} "
        f"worker(s), {timeout:.0f} s each at most",
        file=sys.stderr,
    )
    bar = tqdm(
        total=len(mutants), unit="mutant", disable=args.no_progress, file=sys.stderr, smoothing=0
    )
    survived = 0

    def done(outcome: Outcome) -> None:
        nonlocal survived
        survived += outcome.status == "survived"
        bar.set_postfix(survived=survived, refresh=False)
        bar.update()

    outcomes = run_mutants(
        mutants, suite, reach, workers=args.workers, timeout=timeout, on_done=done
    )
    bar.close()
    sampled = bool(args.sample or args.mutant or args.planted or args.module or args.operator)
    report = Report(outcomes, explanations, sampled, time.monotonic() - started, args.workers)
    print(report.text(diffs=not args.no_diffs))
    if args.mutant or args.planted:
        for outcome in outcomes:
            print(f"\n{outcome.mutant.id}: {outcome.status} {outcome.phase}")
            for failure in outcome.failures:
                print(f"  {failure}")
    if args.json:
        write_json(report, args.json)
    return 0 if report.ok() else 1
