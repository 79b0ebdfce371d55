"""`python manage.py draw_faces`: the worker's pass over the catalog, drawing every face that is
not in the faces cache yet, so that no page waits for one. `make run` and `make serve` run it
after loading the catalog; a second run finds nothing to draw."""

import sys
import time
from typing import Any, Never

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from catalog.models import Card, CardSet
from prints.drawing import faces_draw, faces_missing

MAX_WORKERS = 16


class Command(BaseCommand):
    help = (
        "Draw every card face not in the faces cache yet (all live cards, or those of --sets), "
        "with a progress bar, so that pages never draw one while a player waits."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sets", help="comma-separated set codes (default: every set)")
        parser.add_argument(
            "--workers", type=int, default=0, help="threads drawing (default: the cores, up to 4)"
        )
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 0 <= options["workers"] <= MAX_WORKERS:
            raise CommandError(f"--workers must be between 1 and {MAX_WORKERS}")
        cards = Card.objects.select_related("card_set").order_by("card_set__code", "name")
        if options["sets"]:
            codes = [c.strip() for c in options["sets"].split(",") if c.strip()]
            unknown = sorted(set(codes) - set(CardSet.objects.values_list("code", flat=True)))
            if unknown:
                raise CommandError(f"no set with the code(s) {', '.join(unknown)}")
            cards = cards.filter(card_set__code__in=codes)
        every = list(cards)
        missing = len(faces_missing(every))
        started = time.perf_counter()
        progress: tqdm[Never] = tqdm(
            total=missing, unit="face", disable=options["no_progress"], file=sys.stderr
        )

        def advance(_: Card) -> None:
            progress.update(1)

        drawn = faces_draw(cards=every, workers=options["workers"] or None, on_face=advance)
        progress.close()
        self.stdout.write(
            f"drew {drawn} face{'s' if drawn != 1 else ''} in "
            f"{time.perf_counter() - started:.1f} s ({len(every) - drawn} already drawn)"
        )
