"""`manage.py loadtest`: concurrent clients against the site under gunicorn on loopback, in a
scratch database; fails unless 0 errors and 0 lost writes (`cardsite.operations.loadtest`)."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardsite.operations import OperationError
from cardsite.operations.loadtest import loadtest, loadtest_flood


class Command(BaseCommand):
    help = "Concurrent clients against the site under gunicorn; 0 errors and 0 lost writes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clients", type=int, default=32, help="concurrent clients")
        parser.add_argument("--duration", type=float, default=30.0, help="seconds at most")
        parser.add_argument("--requests", type=int, default=20_000, help="requests at most")
        parser.add_argument("--web-workers", type=int, default=4, help="gunicorn processes")
        parser.add_argument("--threads", type=int, default=4, help="threads per process")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--report", type=Path, help="also write the figures here as JSON")
        parser.add_argument(
            "--simulation-flood",
            action="store_true",
            help="instead of the mix: 3 fresh accounts queue 3 simulations each, and the "
            "clients write cards beside them, each waiting for its report; reports the "
            "validation delay (budget 5 s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["clients"] < 1 or options["requests"] < 1 or options["duration"] <= 0:
            raise CommandError("--clients, --requests and --duration must be positive")
        run = loadtest_flood if options["simulation_flood"] else loadtest
        try:
            run(
                clients=options["clients"],
                duration=options["duration"],
                requests=options["requests"],
                web_workers=options["web_workers"],
                threads=options["threads"],
                seed=options["seed"],
                report=options["report"],
                stdout=self.stdout,
                style=self.style,
            )
        except OperationError as exc:
            raise CommandError(str(exc)) from exc
