"""Benchmark: the first grid of 60 faces a player opens, before and after the worker's pass.

Budget: after `load_catalog` and the pass that draws every face ahead (`draw_faces`, the task
worker's job), the search page's first grid of 60 cards and all 60 of its faces serve in under
1 s. The same grid with nothing drawn ahead (every face drawn in its request) is the reference.
Figures only, never asserted.

It works in a scratch database (the official sets loaded into it) and scratch face caches, so
neither the configured database nor the real face cache is touched.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import Client
from django.test.utils import override_settings

from catalog.management.scratch import scratch_database
from catalog.models import Card
from catalog.services import catalog_load, default_fixture_paths
from prints.drawing import faces_draw

BUDGET_SECONDS = 1.0
FACE = re.compile(r'<img src="(/faces/[^"]+)"')


class Command(BaseCommand):
    help = (
        "Benchmark: the search page's first grid of 60 faces, with every face drawn in its "
        f"request, then after the worker's pass (budget < {BUDGET_SECONDS:.0f} s; figures only)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--query", default="t:monster", help="the search whose first page is shown"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with scratch_database() as scratch:
            self.run(options["query"], scratch)

    def run(self, query: str, scratch: Path) -> None:
        catalog_load(paths=default_fixture_paths(settings.CATALOG_FIXTURES_DIR))
        with override_settings(CACHES=_caches(scratch / "cold"), **_hosts()):
            cold, faces = _first_grid(query)
        with override_settings(CACHES=_caches(scratch / "ahead"), **_hosts()):
            cards = list(Card.objects.select_related("card_set"))
            started = time.perf_counter()
            drawn = faces_draw(cards=cards)
            drawing = time.perf_counter() - started
            ahead, _ = _first_grid(query)
        self.stdout.write(f"the first grid of the search {query!r}: the page and {faces} faces")
        self.stdout.write(f"  every face drawn in its request: {cold:6.2f} s")
        self.stdout.write(f"  the worker's pass:               {drawing:6.2f} s ({drawn} faces)")
        self.stdout.write(
            f"  after the worker's pass:         {ahead:6.2f} s  (budget < {BUDGET_SECONDS} s: "
            f"{'met' if ahead < BUDGET_SECONDS else 'NOT met'})"
        )


def _first_grid(query: str) -> tuple[float, int]:
    """Seconds to serve the search page's first grid and every face it shows, one after the
    other as a browser on one connection would; and how many faces."""
    client = Client()
    started = time.perf_counter()
    page = client.get("/cards/", {"q": query, "view": "grid"})
    if page.status_code != 200:
        raise CommandError(f"the search page answered {page.status_code}")
    urls = FACE.findall(page.content.decode())
    for url in urls:
        face = client.get(url)
        if face.status_code != 200:
            raise CommandError(f"{url} answered {face.status_code}")
    return time.perf_counter() - started, len(urls)


def _caches(location: Path) -> dict[str, Any]:
    return {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(location)},
    }


def _hosts() -> dict[str, Any]:
    # The in-process client calls itself "testserver"; let it in for the run only.
    return {"ALLOWED_HOSTS": [*settings.ALLOWED_HOSTS, "testserver"]}
