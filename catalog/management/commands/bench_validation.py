import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from catalog.selectors import catalog_cards
from validator.checks import check_version
from validator.models import CardCheck
from validator.services import cards_validate


class Command(BaseCommand):
    help = (
        "Benchmark: validate the whole catalog from cold (no stored report), then again with "
        "nothing changed. Prints figures; the stored reports are left as they were."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=3, help="warm re-runs to time")

    def handle(self, *args: Any, **options: Any) -> None:
        cards = catalog_cards()
        if not cards:
            raise CommandError("the catalog is empty: run `python manage.py load_catalog`")
        with transaction.atomic():
            CardCheck.objects.filter(check_version=check_version()).delete()
            start = time.perf_counter()
            reports = cards_validate(cards=cards, deck=cards)
            cold = time.perf_counter() - start
            warm = []
            for _ in range(max(1, options["rounds"])):
                start = time.perf_counter()
                cards_validate(cards=cards, deck=cards)
                warm.append(time.perf_counter() - start)
            transaction.set_rollback(True)
        failing = sum(r.status == "fail" for r in reports)
        self.stdout.write(f"validated {len(cards)} cards ({failing} failing)")
        self.stdout.write(f"  cold:  {cold:.3f} s, {len(cards) / cold:.0f} cards/s")
        self.stdout.write(f"  warm:  {min(warm):.3f} s (best of {len(warm)}; nothing changed)")
