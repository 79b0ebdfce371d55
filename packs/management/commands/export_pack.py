import argparse
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.exports import exporter_get
from packs.exporters import PACK_FORMATS
from packs.selectors import PackBuildError, pack_drawn_faces
from packs.services import BuiltPack, pack_build
from packs.tts.exporter import TtsReport, export_report
from validator.engine import parse_pack

BASE_URL_EXAMPLE = "https://example.org/my-pack/"


def base_url(text: str) -> str:
    """`--base-url`: an absolute http or https address, without a query or a fragment (the
    file names are added to it)."""
    value = text.strip()
    parts = urlsplit(value)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or any(char.isspace() or ord(char) < 32 for char in value)
    ):
        raise argparse.ArgumentTypeError(
            "an http:// or https:// address of the folder where you will upload the images, "
            f"without ? or # (like {BASE_URL_EXAMPLE}), not {text[:200]!r}"
        )
    return value


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
            "--base-url",
            type=base_url,
            metavar="URL",
            help="with --format tts: where you will upload the zip's images (this command "
            "uploads nothing and the site hosts none of them). The saved object's FaceURL and "
            "BackURL are then URL + the image's file name (--base-url "
            f"{BASE_URL_EXAMPLE} gives {BASE_URL_EXAMPLE}door-sheet-1.jpg), so it loads once "
            "the JPEG files are there. Without it they are the bare file names, to be "
            "replaced by the images' URLs after uploading them (the zip's README says how)",
        )
        parser.add_argument(
            "--include-failing",
            action="store_true",
            help="keep cards that fail validation (left out by default)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tts = options["format"] == "tts"
        if options["base_url"] and not tts:
            raise CommandError(
                "--base-url is for --format tts: a pack's JSON or YAML points at no images"
            )
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
        notes = _build_notes(built)
        if tts:
            # Parsed once: the exporter draws from it and the report is made of it. The
            # sheets use the faces drawn ahead as they are.
            document = parse_pack(built.document)
            drawn: dict[str, Any] = {"faces": pack_drawn_faces(document=built.document)}
            if options["base_url"]:
                drawn["base_url"] = options["base_url"]
            _, _, content = exporter.render(document=document, **drawn)
            notes += _tts_notes(export_report(document), options["base_url"])
        else:
            _, _, content = exporter.render(document=built.document)
        summary = (
            f"{built.name}: {built.card_count} cards, {built.door_copies} Door and "
            f"{built.treasure_copies} Treasure copies; sha256 {built.document['sha256'][:16]}…"
        )
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


def _build_notes(built: BuiltPack) -> list[str]:
    """The blend report's warnings."""
    report = built.report
    notes = [f"  left out: {e['card']} ({e['set']}): {e['why']}" for e in report["left_out"]]
    notes += [
        f"  never true here: {e['card']} ({e['set']}): {e['why']}" for e in report["never_true"]
    ]
    notes += [
        f"  in several sets: {e['name']} ({', '.join(e['sets'])})" for e in report["duplicated"]
    ]
    return notes


def _tts_notes(report: TtsReport, url: str | None) -> list[str]:
    """Where the Tabletop Simulator images must go, and the export's report (the README's)."""
    if url:
        where = f"  images: upload the JPEG files to {url} (the saved object points there)"
    else:
        where = (
            "  images: not uploaded: the saved object names them by file; upload them and "
            "replace each name by its URL (README.txt says how), or export with --base-url"
        )
    notes = [where]
    notes += [
        f"  not in the Tabletop Simulator export: {e['name']} ({e['set']}): {e['why']}"
        for e in report["left_out"]
    ]
    notes += [
        f"  stats not known yet ('?' or 'unknown' on its face): {e['name']} ({e['set']}): "
        + ", ".join(e["stats"])
        for e in report["unknown_stats"]
    ]
    return notes
