"""`python manage.py bulk_data`: make the bulk data files again now."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from bulk.models import BulkKind
from bulk.services import bulk_data_refresh


class Command(BaseCommand):
    help = (
        "Make the bulk data files (every public card, every public set with its cards, the "
        "official sets' pack) whose sources changed since they were last made."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "kinds", nargs="*", help=f"only these files ({', '.join(BulkKind.values)})"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bars: dict[str, tqdm[Any]] = {}

        def progress(kind: str, done: int, total: int) -> None:
            bar = bars.get(kind)
            if bar is None:
                bar = bars[kind] = tqdm(total=total, desc=kind, unit="item", leave=False)
            bar.update(done - bar.n)

        try:
            refreshed = bulk_data_refresh(kinds=options["kinds"] or None, progress=progress)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            for bar in bars.values():
                bar.close()
        for item in refreshed:
            state = "written" if item.written else "unchanged"
            self.stdout.write(
                f"{item.kind}: {state}, {item.file.items:,} items, {item.file.size:,} bytes, "
                f"sha256 {item.file.sha256} ({item.file.name})"
            )
