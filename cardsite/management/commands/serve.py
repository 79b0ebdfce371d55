"""`manage.py serve`: the site as in production, gunicorn and the task workers, supervised
(`cardsite.operations.serve`)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardsite.operations import OperationError
from cardsite.operations.serve import serve


class Command(BaseCommand):
    help = "Serve the site with gunicorn and run the task workers beside it, supervised."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default="127.0.0.1:8000", help="host:port to listen on")
        parser.add_argument(
            "--workers", type=int, help="web processes (default: WEB_CONCURRENCY or 2 per core)"
        )
        parser.add_argument(
            "--threads", type=int, help="threads per web process (default: WEB_THREADS or 4)"
        )
        parser.add_argument(
            "--task-workers",
            type=int,
            default=1,
            help="db_worker processes of the bulk queue (simulations, exports, proxy jobs, bulk "
            "data) when TASKS_BACKEND=database (0: run them elsewhere)",
        )
        parser.add_argument(
            "--interactive-workers",
            type=int,
            default=1,
            help="db_worker processes of the interactive queue (saved cards' validation and "
            "faces) when TASKS_BACKEND=database (0: run them elsewhere)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            serve(
                bind=options["bind"],
                workers=options["workers"],
                threads=options["threads"],
                task_workers=options["task_workers"],
                interactive_workers=options["interactive_workers"],
                stdout=self.stdout,
            )
        except OperationError as exc:
            raise CommandError(str(exc)) from exc
