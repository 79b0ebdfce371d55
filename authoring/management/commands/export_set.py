from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.exports.set_yaml import SetYamlExporter
from catalog.models import CardSet
from catalog.selectors import set_file


class Command(BaseCommand):
    help = (
        "Write a set (official or custom, any visibility) and its live cards as a YAML set "
        "file in the fixtures format, to standard output or --output FILE."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", help="the set's code, e.g. munchkin-core")
        parser.add_argument(
            "--output", "-o", type=Path, help="the file to write (default: standard output)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        code: str = options["code"]
        card_set = CardSet.objects.filter(code=code).first()
        if card_set is None:
            raise CommandError(f"no set with the code {code!r}")
        _, _, content = SetYamlExporter().render(set_file=set_file(card_set=card_set))
        output: Path | None = options["output"]
        if output is None:
            self.stdout.write(content.decode("utf-8"), ending="")
            return
        try:
            output.write_bytes(content)
        except OSError as exc:
            raise CommandError(f"{output}: cannot write: {exc}") from exc
        self.stderr.write(f"{card_set.code}: wrote {output} ({len(content)} bytes)")
