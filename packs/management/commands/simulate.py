import json
import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from packs.management.dealt_cards import DEFAULT_SETS, dealt_cards, source_words
from validator.engine import (
    CardBase,
    Options,
    SimulationError,
    Stats,
    simulate,
)

MAX_JOBS = 64


class Command(BaseCommand):
    help = (
        "Play seeded whole games between bots with the catalog's cards (or a pack file's), "
        "checking the engine's invariants after every move, and print statistics. The same "
        "seed prints the same games."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        source = parser.add_mutually_exclusive_group()
        source.add_argument(
            "--sets",
            help=f"comma-separated set codes or names of the catalog (default: {DEFAULT_SETS})",
        )
        source.add_argument(
            "--pack",
            type=Path,
            metavar="FILE",
            help="a pack file (JSON, or YAML ending in .yaml/.yml): play with its deck lists",
        )
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--jobs",
            type=int,
            default=os.cpu_count() or 1,
            help="processes to play in (default: the cores); the statistics are the same "
            "for the same seed whatever the number",
        )
        parser.add_argument("--faster-play", action="store_true", help="the faster-play rules")
        parser.add_argument("--shared-victory", action="store_true")
        parser.add_argument("--json", action="store_true", help="one JSON object")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 2 <= options["players"] <= 6:
            raise CommandError("--players must be between 2 and 6")
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        if not 1 <= options["jobs"] <= MAX_JOBS:
            raise CommandError(f"--jobs must be between 1 and {MAX_JOBS}")
        sets = [options["sets"]] if options["sets"] else None
        cards, source = dealt_cards(pack_file=options["pack"], set_words=sets)
        stats = self._simulate(cards, options)
        report = stats.as_json()
        report.update(source)
        report["seed"] = options["seed"]
        report["players"] = options["players"]
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
        else:
            self._print(report)
        problems = []
        if stats.invariant_violations:
            problems.append(f"{stats.invariant_violations} game(s) broke an invariant")
        if stats.refused_bot_moves:
            problems.append(
                f"the rules refused {stats.refused_bot_moves} move(s) the bots made (skipped)"
            )
        if problems:
            raise CommandError("; ".join(problems))

    def _simulate(self, cards: list[tuple[str, CardBase]], options: dict[str, Any]) -> Stats:
        """The run, its progress shown on stderr. A game that crashed (in whichever process)
        ends the command with a CommandError naming it, its seed and the error; the traceback
        where it was played is shown with --traceback or -v 2."""
        # The bar is closed here whatever happens, never left to the interpreter's exit: a bar
        # drawn again then (tqdm's __del__, as the garbage is collected after the modules it
        # uses are gone) crashed the process with a segmentation fault.
        with tqdm(
            total=options["games"],
            unit="game",
            disable=bool(options["no_progress"] or options["json"]),
            file=sys.stderr,
        ) as progress:

            def advance(_: int) -> None:
                progress.update(1)

            try:
                return simulate(
                    cards,
                    players=options["players"],
                    games=options["games"],
                    seed=options["seed"],
                    options=Options(options["faster_play"], options["shared_victory"]),
                    on_game=advance,
                    jobs=options["jobs"],
                )
            except SimulationError as exc:
                if options["traceback"] or options["verbosity"] >= 2:
                    self.stderr.write(exc.detail)
                raise CommandError(str(exc)) from None

    def _print(self, report: dict[str, Any]) -> None:
        write = self.stdout.write
        source = source_words(report)
        games, players, seed = report["games"], report["players"], report["seed"]
        write(f"{games} games of {players} players, {source}, seed {seed}")
        write(f"  games per second:     {report['games_per_second']}")
        write(f"  mean turns per game:  {report['mean_turns']}")
        lengths = [int(k) for k, n in report["game_lengths"].items() for _ in range(n)]
        if lengths:
            write(
                f"  turns per game:       shortest {lengths[0]}, median "
                f"{lengths[len(lengths) // 2]}, longest {lengths[-1]}"
            )
        write(f"  unfinished games:     {report['unfinished_games']}")
        write(f"  invariant violations: {report['invariant_violations']}")
        wins = ", ".join(f"seat {k}: {v}" for k, v in report["wins_by_seat"].items())
        write(f"  wins by seat:         {wins}")
        write(f"  mean levels per turn: {report['mean_levels_per_turn']}")
        per_turn = ", ".join(f"{int(k):+d}: {v}" for k, v in report["levels_per_turn"].items())
        write(f"  turns by levels gained: {per_turn}")
        write("  monsters (fought / beaten):")
        monsters = sorted(report["monsters"].items(), key=lambda kv: -kv[1]["fought"])
        for name, counts in monsters:
            write(f"    {name:<40} {counts['fought']:>6} / {counts['beaten']:<6}")
        for violation in report["violations"]:
            write(f"  ! {violation}")
        write(f"  refused bot moves:    {report['refused_bot_moves']}")
        for refusal in report["refusals"]:
            write(f"  ! {refusal}")
        write(f"{report['invariant_violations']} invariant violations")
