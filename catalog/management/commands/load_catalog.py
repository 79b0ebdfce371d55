from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.services import CatalogLoadError, catalog_load, default_fixture_paths


class Command(BaseCommand):
    help = (
        "Load set files (default: every file in fixtures/sets/) into the catalog: an idempotent "
        "upsert by (set, card name). Any error in any file writes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="*", type=Path, help="set files or folders of them")
        parser.add_argument(
            "--check",
            action="store_true",
            help="validate and report what would change; write nothing",
        )
        parser.add_argument(
            "--verbose-cards", action="store_true", help="list each created or updated card"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        paths = self._expand(options["paths"] or [Path(settings.CATALOG_FIXTURES_DIR)])
        if not paths:
            raise CommandError("no set files found (looked for *.yaml)")
        try:
            report = catalog_load(paths=paths, check_only=options["check"])
        except CatalogLoadError as exc:
            for line in exc.lines():
                self.stderr.write(line)
            count = sum(len(e.errors) for e in exc.errors)
            raise CommandError(
                f"{count} error{'s' if count != 1 else ''}; nothing was written"
            ) from exc
        verb = "would be" if options["check"] else ""
        for s in report.sets:
            line = (
                f"{s.code}: {len(s.created)} created, {len(s.updated)} updated, "
                f"{len(s.unchanged)} unchanged"
            )
            if options["check"]:
                line = (
                    f"{s.code} (check only, nothing written): {len(s.created)} {verb} created, "
                    f"{len(s.updated)} {verb} updated, {len(s.unchanged)} unchanged"
                )
            self.stdout.write(line)
            if options["verbose_cards"]:
                for name in s.created:
                    self.stdout.write(f"  + {name}")
                for name in s.updated:
                    self.stdout.write(f"  ~ {name}")

    @staticmethod
    def _expand(paths: list[Path]) -> list[Path]:
        files: list[Path] = []
        for path in paths:
            if path.is_dir():
                files.extend(default_fixture_paths(path))
            elif path.exists():
                files.append(path)
            else:
                raise CommandError(f"{path}: no such file or folder")
        return files
