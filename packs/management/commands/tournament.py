import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from packs.management.dealt_cards import DEFAULT_SETS, dealt_cards, source_words
from validator.engine import (
    POLICIES,
    CardBase,
    Options,
    SimulationError,
    TournamentResult,
    tournament,
)

MAX_PROCESSES = 64


class Command(BaseCommand):
    help = (
        "Play seeded games of the shrewd bots against the classic ones, half the seats each "
        "with the seats rotated, and the same deals by each alone; print each policy's games, "
        "wins and win rate (with a 95% Wilson interval) and the games' lengths before and "
        "after. The same seed prints the same figures in any number of processes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        source = parser.add_mutually_exclusive_group()
        source.add_argument(
            "--sets",
            nargs="+",
            metavar="SET",
            help="set codes or names of the catalog, spaces or commas between them "
            f"(default: {DEFAULT_SETS})",
        )
        source.add_argument(
            "--pack", type=Path, metavar="FILE", help="a pack file: play with its deck lists"
        )
        parser.add_argument("--games", type=int, default=1000, help="mixed games (default 1000)")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--processes",
            "--jobs",
            dest="processes",
            type=int,
            default=1,
            help="processes to play in; the figures are the same whatever the number",
        )
        parser.add_argument("--new", default="shrewd", choices=sorted(POLICIES))
        parser.add_argument("--old", default="classic", choices=sorted(POLICIES))
        parser.add_argument("--faster-play", action="store_true", help="the faster-play rules")
        parser.add_argument("--json", action="store_true", help="one JSON object")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 2 <= options["players"] <= 6:
            raise CommandError("--players must be between 2 and 6")
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        if not 1 <= options["processes"] <= MAX_PROCESSES:
            raise CommandError(f"--processes must be between 1 and {MAX_PROCESSES}")
        if options["new"] == options["old"]:
            raise CommandError("--new and --old must be two different policies")
        cards, source = dealt_cards(pack_file=options["pack"], set_words=options["sets"])
        result = self._play(cards, options)
        report = {**source, **result.as_json()}
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
        else:
            self._print(report)
        problems = []
        if report["invariant_violations"]:
            problems.append(f"{report['invariant_violations']} game(s) broke an invariant")
        if report["refused_bot_moves"]:
            problems.append(f"the rules refused {report['refused_bot_moves']} bot move(s)")
        if problems:
            raise CommandError("; ".join(problems))

    def _play(self, cards: list[tuple[str, CardBase]], options: dict[str, Any]) -> TournamentResult:
        """The tournament, its progress on stderr (3 games a mixed game: it, and its deal
        played by each policy alone)."""
        games = options["games"]
        with tqdm(
            total=3 * games,
            unit="game",
            disable=bool(options["no_progress"] or options["json"]),
            file=sys.stderr,
        ) as progress:

            def advance(_: int) -> None:
                progress.update(1)

            try:
                return tournament(
                    cards,
                    games=games,
                    players=options["players"],
                    seed=options["seed"],
                    new=POLICIES[options["new"]],
                    old=POLICIES[options["old"]],
                    options=Options(options["faster_play"], False),
                    jobs=options["processes"],
                    on_game=advance,
                )
            except SimulationError as exc:
                if options["traceback"] or options["verbosity"] >= 2:
                    self.stderr.write(exc.detail)
                raise CommandError(str(exc)) from None

    def _print(self, report: dict[str, Any]) -> None:
        write = self.stdout.write
        source = source_words(report)
        new, old = report["new"], report["old"]
        write(
            f"{report['games']} games of {report['players']} players, {new} bots against "
            f"{old} ones, half the seats each (seats rotated, each deal played twice with the "
            f"policies swapped), {source}, seed {report['seed']}"
        )
        write(f"  {'policy':<10} {'games':>6} {'wins':>6} {'win rate':>9}  95% interval")
        for name, figures in report["policies"].items():
            low, high = figures["ci95"]
            write(
                f"  {name:<10} {figures['games']:>6} {figures['wins']:>6} "
                f"{figures['win_rate']:>9.1%}  {low:.1%} to {high:.1%}"
            )
        both = report["games_both_won"]
        shared = f"; {both} won by a seat of each, counted for both" if both else ""
        write(f"  (an even match wins 50% of the games{shared})")
        mixed = report["mixed_games"]
        write(f"  mixed games: {mixed['mean_turns']} turns on average")
        write("  the same deals, each policy alone (turns a game: every player's turn counts):")
        for name in (old, new):
            alone = report["alone"][name]
            write(
                f"    all {name + ':':<9} {alone['games']} games, {alone['mean_turns']} turns on "
                f"average (median {alone['median_turns']}), {alone['unfinished_games']} unfinished"
            )
        write(f"  games per second:     {report['games_per_second']}")
        write(f"  invariant violations: {report['invariant_violations']}")
        write(f"  refused bot moves:    {report['refused_bot_moves']}")
        for problem in report["problems"]:
            write(f"  ! {problem}")
