"""`manage.py restore FILE`: a `backup` file put back into an empty database, in one
transaction (`cardsite.operations.restore`)."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardsite.operations import OperationError
from cardsite.operations.restore import restore


class Command(BaseCommand):
    help = (
        "Restore a `backup` file into an empty database (after `migrate`), in one transaction. "
        "A database that already holds users, sets or cards is refused; there is no --force."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a file written by `backup`")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            counts = restore(path=path)
        except OperationError as exc:
            raise CommandError(str(exc)) from exc
        restored = ", ".join(f"{n} {name}" for name, n in counts.items())
        self.stdout.write(f"restored {path}: {restored}")
