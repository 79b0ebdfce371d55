"""`manage.py backup --output FILE`: the whole site's own data in one JSON file, for `restore`
(`cardsite.operations.backup`, which says what the file holds and what it does not)."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardsite.operations import OperationError
from cardsite.operations.backup import backup


class Command(BaseCommand):
    help = (
        "Write every user, set (official and custom), card, revision, scenario and pack to one "
        "JSON file (gzip when it ends in .gz), for `restore`. API tokens and art files are not "
        "in it: back up MEDIA_ROOT beside it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", required=True, type=Path, help="the file to write")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["output"]
        try:
            counts = backup(path=path)
        except OperationError as exc:
            raise CommandError(str(exc)) from exc
        written = ", ".join(f"{n} {name}" for name, n in counts.items())
        self.stdout.write(f"wrote {path}: {written}")
