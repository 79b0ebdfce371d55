"""Printable proxy sheets as a PDF: `python manage.py print_proxies --sets munchkin-core
--paper a4 --output core.pdf`. The layout, marks and backs are described in
catalog/exports/proxies.py. Nothing is written when anything is wrong, and never half a file."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from prints.proxies import build_pdf, proxy_cards_from_pack
from prints.selectors import proxy_cards_from_catalog
from prints.sheets import (
    BACKS,
    CARD_SIZES,
    CUT_MARKS,
    ORIENTATIONS,
    PAPERS,
    ProxyCard,
    ProxyError,
    ProxyOptions,
    layout,
    parse_size,
)
from validator.engine import PackError, load_pack


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError as exc:
        raise ProxyError(f"{what} {text!r} is not a number of millimetres") from exc


def _offset(text: str) -> tuple[float, float]:
    parts = text.replace(";", ",").split(",")
    if len(parts) != 2:
        raise ProxyError(
            f"back offset {text!r}: write X,Y in millimetres, e.g. --back-offset=0.5,-1"
        )
    return _number(parts[0].strip(), "back offset"), _number(parts[1].strip(), "back offset")


class Command(BaseCommand):
    help = (
        "Write printable proxy sheets (PDF, cards at true size with cut marks and optional "
        "backs) of some sets, a pack file, a search query or named cards. Nothing is written "
        "when anything is wrong."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sets", help="set codes, comma-separated")
        parser.add_argument("--pack", help="a pack file (JSON or YAML): its deck lists")
        parser.add_argument("--query", help="a search query (within --sets when given)")
        parser.add_argument(
            "--cards",
            nargs="+",
            metavar="NAME",
            help="card names, one copy each mention (Name@set-code for one set's card)",
        )
        parser.add_argument("--paper", default="a4", choices=[*PAPERS, "custom"])
        parser.add_argument("--paper-size", help="custom paper WxH in mm (implies --paper custom)")
        parser.add_argument("--orientation", default="portrait", choices=ORIENTATIONS)
        parser.add_argument(
            "--card-size",
            default="munchkin",
            help=f"{' or '.join(CARD_SIZES)} (63 x 88 mm), or WxH in mm such as 63.5x88.9",
        )
        parser.add_argument("--bleed", default="0", help="mm, from 0 to 3")
        parser.add_argument("--gutter", default="0", help="mm between cards")
        parser.add_argument("--margin", default="5", help="mm kept clear at each page edge")
        parser.add_argument("--cut-marks", default="margin", choices=CUT_MARKS)
        parser.add_argument("--backs", default="none", choices=BACKS)
        parser.add_argument(
            "--back-offset",
            default="0,0",
            help="X,Y mm to move duplex backs by (right, down); --back-offset=-0.5,1",
        )
        parser.add_argument(
            "--no-instructions",
            action="store_true",
            help="leave out the first page (print at 100%% and a 50 mm ruler)",
        )
        parser.add_argument(
            "--alignment-page",
            action="store_true",
            help="add a front/back test pair that measures the duplex back offset",
        )
        parser.add_argument(
            "--ink-saving",
            action="store_true",
            help="faces with a thin frame and outlined badges, no filled bands",
        )
        parser.add_argument("--output", required=True, help="the PDF file to write")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["output"])
        try:
            cards = self.cards(options)
            proxy_options = self.proxy_options(options)
            proxy_options.check()
            content, pages = build_pdf(cards, proxy_options)
        except ProxyError as exc:
            raise CommandError(f"no PDF written: {exc}") from exc
        partial = path.with_name(path.name + ".partial")
        try:
            partial.write_bytes(content)
            partial.replace(path)  # whole or not at all
        except OSError as exc:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise CommandError(f"no PDF written: {path}: {exc.strerror or exc}") from exc
        grid = layout(proxy_options)
        kinds: dict[str, int] = {}
        for page in pages:
            label = (
                f"{(page.deck or 'no-deck').title()} {page.kind}"
                if page.kind in ("faces", "backs")
                else page.kind
            )
            kinds[label] = kinds.get(label, 0) + 1
        copies = sum(card.copies for card in cards)
        self.stdout.write(
            f"wrote {path}: {len(pages)} pages, {copies} cards ({len(cards)} different), "
            f"{grid.columns} x {grid.rows} per page on {proxy_options.paper_label} "
            f"({len(content) / 1e6:.1f} MB)"
        )
        for label, count in kinds.items():
            self.stdout.write(f"  {count:3d} {label} page{'s' if count != 1 else ''}")

    def cards(self, options: dict[str, Any]) -> list[ProxyCard]:
        chosen = [name for name in ("sets", "pack", "query", "cards") if options[name]]
        if not chosen:
            raise ProxyError("choose the cards: --sets, --pack, --query or --cards")
        if options["pack"]:
            if len(chosen) > 1:
                raise ProxyError("--pack prints the pack's deck lists: give it alone")
            pack_path = Path(options["pack"])
            if not pack_path.is_file():
                raise ProxyError(f"no pack file {pack_path}")
            try:
                pack = load_pack(pack_path)
            except PackError as exc:
                raise ProxyError(f"the pack {pack_path} cannot be read: {exc}") from exc
            return proxy_cards_from_pack(pack)
        codes = [c.strip() for c in options["sets"].split(",")] if options["sets"] else None
        return proxy_cards_from_catalog(
            set_codes=codes, query=options["query"], names=options["cards"]
        )

    def proxy_options(self, options: dict[str, Any]) -> ProxyOptions:
        paper, paper_size = options["paper"], None
        if options["paper_size"]:
            paper_size = parse_size(options["paper_size"], what="paper size")
            paper = "custom"
        elif paper == "custom":
            raise ProxyError("--paper custom needs --paper-size WxH (mm)")
        card_size_text = options["card_size"].strip()
        card_size = CARD_SIZES.get(card_size_text.lower()) or parse_size(
            card_size_text, what="card size"
        )
        return ProxyOptions(
            paper=paper,
            paper_size=paper_size,
            orientation=options["orientation"],
            card_size=card_size,
            bleed=_number(options["bleed"], "bleed"),
            gutter=_number(options["gutter"], "gutter"),
            margin=_number(options["margin"], "margin"),
            cut_marks=options["cut_marks"],
            backs=options["backs"],
            back_offset=_offset(options["back_offset"]),
            instructions=not options["no_instructions"],
            ink_saving=options["ink_saving"],
            alignment_page=options["alignment_page"],
        )
