import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.selectors import catalog_card_library
from validator.engine import run_paths


class Command(BaseCommand):
    help = (
        "Run scenario files (or folders of them) through the rules engine, looking card names up "
        "in the catalog. Exit status 0 only when every expectation of every scenario holds."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path, help="scenario files or folders")
        parser.add_argument(
            "--json", action="store_true", help="one JSON object per scenario, every value"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        results = run_paths(options["paths"], catalog_card_library())
        for result in results:
            if options["json"]:
                self.stdout.write(json.dumps(result.as_json(), sort_keys=True))
            else:
                self.stdout.write(result.line())
        failed = sum(not r.passed for r in results)
        if not options["json"]:
            self.stdout.write(f"{len(results) - failed} passed, {failed} failed")
        if not results:
            raise CommandError("no scenario files found")
        if failed:
            raise CommandError(f"{failed} scenario(s) failed")
