import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.exports import exporter_get
from packs.exporters import PACK_FORMATS
from packs.selectors import PackBuildError, pack_drawn_faces
from packs.services import pack_build


class Command(BaseCommand):
    help = (
        "Write an engine-ready pack of the given sets (every set of the site), optionally "
        "narrowed by a search query. Nothing is written when anything is wrong."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sets", required=True, help="set codes, comma-separated")
        parser.add_argument("--query", default="", help="a search query to narrow the cards")
        parser.add_argument("--name", default="", help="the pack's name")
        parser.add_argument("--output", help="the file to write (default: standard output)")
        parser.add_argument(
            "--format",
            choices=(*PACK_FORMATS, "tts"),
            default="json",
            help="the pack as JSON or YAML, or tts: the Tabletop Simulator zip, made here (the "
            "site makes it in the background) with the faces drawn ahead",
        )
        parser.add_argument(
            "--include-failing",
            action="store_true",
            help="keep cards that fail validation (left out by default)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        codes = [c.strip() for c in options["sets"].split(",") if c.strip()]
        try:
            built = pack_build(
                actor=None,
                set_codes=codes,
                query=options["query"],
                include_failing=options["include_failing"],
                name=options["name"],
            )
        except PackBuildError as exc:
            raise CommandError(
                "no pack written:\n" + "\n".join(f"  {p}: {m}" for p, m in exc.errors)
            ) from exc
        exporter = exporter_get(f"pack-{options['format']}")
        # The Tabletop Simulator sheets draw faces: those drawn ahead are used as they are.
        drawn = (
            {"faces": pack_drawn_faces(document=built.document)}
            if options["format"] == "tts"
            else {}
        )
        _, _, content = exporter.render(document=built.document, **drawn)
        report = built.report
        summary = (
            f"{built.name}: {built.card_count} cards, {built.door_copies} Door and "
            f"{built.treasure_copies} Treasure copies; sha256 {built.document['sha256'][:16]}…"
        )
        notes = [f"  left out: {e['card']} ({e['set']}): {e['why']}" for e in report["left_out"]]
        notes += [
            f"  never true here: {e['card']} ({e['set']}): {e['why']}" for e in report["never_true"]
        ]
        notes += [
            f"  in several sets: {e['name']} ({', '.join(e['sets'])})" for e in report["duplicated"]
        ]
        if options["output"]:
            path = Path(options["output"])
            partial = path.with_name(path.name + ".partial")
            partial.write_bytes(content)
            partial.replace(path)  # whole or not at all
            self.stdout.write(f"wrote {path}: {summary}")
            for line in notes:
                self.stdout.write(line)
        else:
            sys.stdout.buffer.write(content)
            sys.stdout.flush()
            self.stderr.write(summary)
            for line in notes:
                self.stderr.write(line)
