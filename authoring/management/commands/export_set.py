from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.exports import exporter_get
from catalog.models import CardSet
from catalog.selectors import set_file
from validator.engine import nearest_word


class Command(BaseCommand):
    help = (
        "Write a set (official or custom, any visibility) and its live cards as a YAML set "
        "file in the fixtures format, to standard output or --output FILE. With --fixture, an "
        "official set is written as fixtures/sets/ holds it: with its sources and each card's "
        "provenance, the contributions curators accepted included."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", help="the set's code, e.g. munchkin-core")
        parser.add_argument(
            "--output", "-o", type=Path, help="the file to write (default: standard output)"
        )
        parser.add_argument(
            "--fixture",
            action="store_true",
            help="an official set with its sources and provenance, for fixtures/sets/",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        code: str = options["code"]
        card_set = CardSet.objects.filter(code=code).first()
        if card_set is None:
            near = nearest_word(code, list(CardSet.objects.values_list("code", flat=True)))
            hint = f"; did you mean {near!r}?" if near else ""
            raise CommandError(f"no set with the code {code!r}{hint}")
        fixture: bool = options["fixture"]
        if fixture and not card_set.official:
            # The fixtures hold the official sets only; a custom set has no sources and takes
            # no proposals, so there is no provenance to write.
            raise CommandError(
                f"{code!r} is a custom set: --fixture writes official sets only; "
                "export it without --fixture"
            )
        _, _, content = exporter_get("set-yaml").render(
            set_file=set_file(card_set=card_set, provenance=fixture)
        )
        output: Path | None = options["output"]
        if output is None:
            self.stdout.write(content.decode("utf-8"), ending="")
            return
        try:
            output.write_bytes(content)
        except OSError as exc:
            raise CommandError(f"{output}: cannot write: {exc}") from exc
        self.stderr.write(f"{card_set.code}: wrote {output} ({len(content)} bytes)")
