import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.services import (
    CatalogLoadError,
    LoadConflict,
    SetLoadReport,
    catalog_load,
    default_fixture_paths,
)

# A value longer than this is cut in a conflict's line (an effects list can be long).
SHOWN_LIMIT = 80


def shown(value: Any) -> str:
    """A document value as the set file would spell it, in one line: null, 2, "text", [...]."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_LIMIT else text[: SHOWN_LIMIT - 1] + "…"


def conflict_line(code: str, conflict: LoadConflict, *, check: bool) -> str:
    """munchkin-super: Generic Guy: treasures: database 2 (accepted proposal #7 by alice),
    fixture null — kept the database's; --prefer-fixture to take the file's"""
    values = (
        f"{code}: {conflict.card}: {conflict.field}: database {shown(conflict.database)} "
        f"({conflict.origin}), fixture {shown(conflict.fixture)}"
    )
    if conflict.taken == "database":
        kept = "would keep" if check else "kept"
        return f"{values} — {kept} the database's; --prefer-fixture to take the file's"
    took = "would take" if check else "took"
    return f"{values} — {took} the file's (--prefer-fixture)"


class Command(BaseCommand):
    help = (
        "Load set files (default: every file in fixtures/sets/) into the catalog: an idempotent "
        "upsert by (set, card name). Any error in any file writes nothing. A card whose "
        "accepted contribution differs from the file is kept and the conflict reported (exit "
        "status 0), unless --prefer-fixture."
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
        parser.add_argument(
            "--prefer-fixture",
            action="store_true",
            help="write the file's version of a card even where it differs from a contribution "
            "a curator accepted (a new revision; the contribution stays in the history)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        paths = self._expand(options["paths"] or [Path(settings.CATALOG_FIXTURES_DIR)])
        if not paths:
            raise CommandError("no set files found (looked for *.yaml)")
        try:
            report = catalog_load(
                paths=paths, check_only=options["check"], prefer_fixture=options["prefer_fixture"]
            )
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
            if s.kept:
                line += f", {len(s.kept)} kept for accepted contributions"
            self.stdout.write(line)
            if options["verbose_cards"]:
                for name in s.created:
                    self.stdout.write(f"  + {name}")
                for name in s.updated:
                    self.stdout.write(f"  ~ {name}")
            self._conflicts(s, check=options["check"])

    def _conflicts(self, report: SetLoadReport, *, check: bool) -> None:
        """Each conflict on a line of its own, and a line per card the file's version
        replaced a contribution of. Information, not an error: the exit status stays 0, so
        a conflict never stops `make serve`, which loads the catalog on every start."""
        for conflict in report.conflicts:
            self.stdout.write(self.style.WARNING(conflict_line(report.code, conflict, check=check)))
        for name in report.overridden:
            verb = "would replace" if check else "replaced"
            self.stdout.write(
                self.style.WARNING(
                    f"{report.code}: {name}: --prefer-fixture: the file's version {verb} an "
                    "accepted contribution (a new revision; the contribution stays in the history)"
                )
            )

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
