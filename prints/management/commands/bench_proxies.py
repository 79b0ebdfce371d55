"""Benchmark: printable proxies of the 168-card core set on A4, 300-DPI faces, cut marks.

Budget: under 10 s from cold (an empty face cache: all 147 faces rendered), under 2 s with the
faces cached, under 30 MB of memory (tracemalloc's peak: what Python allocates for the export,
the face bytes and the PDF included; Pillow's pixel buffers live outside it). Figures only,
never asserted.

Like bench_pack, it works in a scratch database (the core set loaded into it) and a scratch
face cache, so neither the configured database nor the real face cache is touched.
"""

from __future__ import annotations

import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.test.utils import override_settings

from catalog.management.scratch import scratch_database
from catalog.services import catalog_load
from prints.proxies import build_pdf
from prints.selectors import proxy_cards_from_catalog
from prints.sheets import ProxyCard, ProxyOptions

BUDGET_COLD, BUDGET_WARM, BUDGET_MB = 10.0, 2.0, 30.0


class Command(BaseCommand):
    help = "Benchmark: core-set proxy sheets on A4, cold and with cached faces (figures only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--set", default="munchkin-core", help="the set to print")

    def handle(self, *args: Any, **options: Any) -> None:
        with scratch_database() as scratch:
            self.run(options["set"], scratch)

    def run(self, set_code: str, scratch: Path) -> None:
        catalog_load(paths=[settings.CATALOG_FIXTURES_DIR / f"{set_code}.yaml"])
        options = ProxyOptions(paper="a4", cut_marks="margin")
        with override_settings(CACHES=self.caches(scratch / "faces")):
            cold, pages, size = self.once(set_code, options)
            warm, _, _ = self.once(set_code, options)
            peak_warm = self.peak(set_code, options)
        # The memory of a cold run, measured apart (tracemalloc slows it down).
        with override_settings(CACHES=self.caches(scratch / "faces-2")):
            peak_cold = self.peak(set_code, options)
        cards = proxy_cards_from_catalog(set_codes=[set_code])
        copies = sum(card.copies for card in cards)
        self.stdout.write(
            f"proxies: {set_code}, {copies} cards ({len(cards)} faces), A4, 300-DPI faces, "
            f"cut marks: {pages} pages, {size / 1e6:.1f} MB PDF"
        )
        self.stdout.write(f"  cold (empty face cache): {cold:6.2f} s  (budget < {BUDGET_COLD} s)")
        self.stdout.write(f"  warm (faces cached):     {warm:6.2f} s  (budget < {BUDGET_WARM} s)")
        self.stdout.write(
            f"  peak memory (tracemalloc): cold {peak_cold / 1e6:.1f} MB, "
            f"warm {peak_warm / 1e6:.1f} MB  (budget < {BUDGET_MB} MB)"
        )

    @staticmethod
    def caches(location: Path) -> dict[str, Any]:
        return {
            **settings.CACHES,
            "faces": {
                "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                "LOCATION": str(location),
                "TIMEOUT": None,
            },
        }

    def peak(self, set_code: str, options: ProxyOptions) -> int:
        tracemalloc.start()
        try:
            self.once(set_code, options)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    def once(self, set_code: str, options: ProxyOptions) -> tuple[float, int, int]:
        """One export as the command does it (cards read, PDF built, written to a file)."""
        started = time.perf_counter()
        cards: list[ProxyCard] = proxy_cards_from_catalog(set_codes=[set_code])
        content, pages = build_pdf(cards, options)
        with tempfile.NamedTemporaryFile(suffix=".pdf") as output:
            output.write(content)
            output.flush()
        return time.perf_counter() - started, len(pages), len(content)
