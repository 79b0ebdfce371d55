"""Benchmark: whole 4-player core games per second, and scenarios per second.

Run `make bench` (or `python -m validator.engine.bench`). Figures are printed, never asserted:
the budgets (ENGINE_BUDGET and CHECKED_BUDGET games a second on one core) are checked by
reading them, beside the scaling of `simulate --jobs N` from one process to one per core.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path

from validator.engine.library import library_from_set_files
from validator.engine.scenario import run_paths
from validator.engine.simulation import simulate

ENGINE_BUDGET = 400  # four-player core games a second, one core, invariants at the end
CHECKED_BUDGET = 250  # the same with the invariants checked after every move
SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--sets", default="munchkin-core")
    parser.add_argument("--rounds", type=int, default=5, help="passes over the scenarios")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cards = list(library_from_set_files(args.sets.split(",")).cards())

    figures: dict[str, float | int] = {"games": args.games}
    for label, strict in (("engine", False), ("checked", True)):
        cpu = time.process_time()
        stats = simulate(cards, players=4, games=args.games, seed=1, check_every_move=strict)
        cpu = time.process_time() - cpu
        figures[f"{label}_games_per_second"] = round(args.games / cpu, 1)
        figures[f"{label}_invariant_violations"] = stats.invariant_violations
    figures["mean_turns"] = round(sum(stats.turns) / len(stats.turns), 1)

    # Scaling: wall-clock games a second, invariants checked after every move (as `simulate`
    # and the pack page play), from one process to one per core.
    for jobs in range(1, (os.cpu_count() or 1) + 1):
        wall = time.perf_counter()
        simulate(cards, players=4, games=args.games, seed=1, jobs=jobs)
        figures[f"jobs_{jobs}_games_per_second"] = round(
            args.games / (time.perf_counter() - wall), 1
        )

    cpu = time.process_time()
    count = 0
    for _ in range(args.rounds):
        results = run_paths([SCENARIOS])
        count += len(results)
    cpu = time.process_time() - cpu
    figures["scenarios"] = count // max(1, args.rounds)
    figures["scenarios_per_second"] = round(count / cpu, 1) if cpu else 0.0
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        print(f"4-player {args.sets} games, CPU time on one core, {args.games} games each:")
        print(
            f"  engine alone (invariants checked at each game's end): "
            f"{figures['engine_games_per_second']} games/s (budget {ENGINE_BUDGET})"
        )
        print(
            f"  invariants checked after every move (as `simulate`):  "
            f"{figures['checked_games_per_second']} games/s (budget {CHECKED_BUDGET})"
        )
        print(f"  mean turns per game: {figures['mean_turns']}")
        single = figures["jobs_1_games_per_second"]
        print("  simulate --jobs N, wall clock, invariants after every move:")
        for jobs in range(1, (os.cpu_count() or 1) + 1):
            rate = figures[f"jobs_{jobs}_games_per_second"]
            print(f"    {jobs} process(es): {rate} games/s (x{rate / single:.2f})")
        print(
            f"  budgets: engine alone >= {ENGINE_BUDGET}, checked >= {CHECKED_BUDGET} games/s "
            "on one core"
        )
        print(
            f"scenarios: {figures['scenarios']} files, {figures['scenarios_per_second']} "
            "scenarios/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
