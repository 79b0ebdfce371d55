import json
import sys
from typing import Any, Never

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from catalog.selectors import catalog_card_library
from validator.engine.game import simulate
from validator.engine.state import Options


class Command(BaseCommand):
    help = (
        "Play seeded whole games between bots with the catalog's cards, checking the engine's "
        "invariants after every move, and print statistics. The same seed prints the same games."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sets", default="munchkin-core", help="comma-separated set codes")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--faster-play", action="store_true", help="the faster-play rules")
        parser.add_argument("--shared-victory", action="store_true")
        parser.add_argument("--json", action="store_true", help="one JSON object")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        codes = [c.strip() for c in options["sets"].split(",") if c.strip()]
        library = catalog_card_library(set_codes=codes)
        missing = [c for c in codes if c not in library.sets]
        if missing:
            raise CommandError(
                f"no cards for set(s) {', '.join(missing)}: run `python manage.py load_catalog`"
            )
        if not 2 <= options["players"] <= 6:
            raise CommandError("--players must be between 2 and 6")
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        progress: tqdm[Never] = tqdm(
            total=options["games"],
            unit="game",
            disable=bool(options["no_progress"] or options["json"]),
            file=sys.stderr,
        )

        def advance(_: int) -> None:
            progress.update(1)

        stats = simulate(
            list(library.cards()),
            players=options["players"],
            games=options["games"],
            seed=options["seed"],
            options=Options(options["faster_play"], options["shared_victory"]),
            on_game=advance,
        )
        progress.close()
        report = stats.as_json()
        report["sets"] = codes
        report["seed"] = options["seed"]
        report["players"] = options["players"]
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
        else:
            self._print(report)
        if stats.invariant_violations:
            raise CommandError(f"{stats.invariant_violations} game(s) broke an invariant")

    def _print(self, report: dict[str, Any]) -> None:
        write = self.stdout.write
        write(
            f"{report['games']} games of {report['players']} players, sets "
            f"{', '.join(report['sets'])}, seed {report['seed']}"
        )
        write(f"  games per second:     {report['games_per_second']}")
        write(f"  mean turns per game:  {report['mean_turns']}")
        write(f"  unfinished games:     {report['unfinished_games']}")
        write(f"  invariant violations: {report['invariant_violations']}")
        wins = ", ".join(f"seat {k}: {v}" for k, v in report["wins_by_seat"].items())
        write(f"  wins by seat:         {wins}")
        write("  monsters (fought / beaten):")
        monsters = sorted(report["monsters"].items(), key=lambda kv: -kv[1]["fought"])
        for name, counts in monsters:
            write(f"    {name:<40} {counts['fought']:>6} / {counts['beaten']:<6}")
        for violation in report["violations"]:
            write(f"  ! {violation}")
