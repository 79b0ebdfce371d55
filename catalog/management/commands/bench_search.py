"""Benchmark: search through the API over a generated catalog of 100,000 cards.

The catalog is built in a scratch database made by Django's own test-database machinery
(a temporary file on SQLite, `<name>_bench` on PostgreSQL), so the configured database is never
touched. The official sets are loaded, then custom sets are generated from them: every
generated card copies an official card's document (kind, effect, tags, facets) under a new
name, with its numbers varied and a sentence of flavour added to its text.
"""

from __future__ import annotations

import copy
import logging
import random
import statistics
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.test import Client, override_settings
from tqdm import tqdm

from catalog.management.scratch import scratch_database
from catalog.models import Card, CardFacet, CardSet, CardTag
from catalog.names import name_key
from catalog.selectors import catalog_cards
from catalog.services import card_slug, catalog_load, default_fixture_paths
from validator.engine import document_hash
from validator.services import cards_validate

BUDGET_P95_MS = 50.0
# Name completion is asked on every key press.
AUTOCOMPLETE_BUDGET_P95_MS = 10.0

# What a player types into the search box, key by key, and names as deck tools send them.
PREFIXES = ["b", "bu", "bul", "bull", "ki", "kill the", "d", "duck", "sh", "zz", "the", "ga"]
NAMED = ["exact=Bullrog", "fuzzy=bulrog", "fuzzy=kill hireling", "fuzzy=duck doom", "fuzzy=zzzq"]

# At least 20 queries people really type: single filters, combinations, words, phrases, negation,
# groups, ordering, deep pages and a malformed one.
QUERIES = [
    "",
    "t:monster",
    "set:munchkin-core t:monster lvl>=16",
    "chicken",
    "name:boots",
    '!"Net Troll"',
    'o:"gain 1 level"',
    "o:undead",
    "dragon or troll",
    "tag:undead",
    "deck:treasure bonus>=3 order:bonus direction:desc",
    "slot:footgear gold<=400",
    "usable:elf",
    "vs:elf",
    "bad:death",
    "is:big",
    "is:custom t:curse",
    "not:custom order:level",
    "t:monster (tag:undead or tag:shark) -set:munchkin-core lvl>=10 order:level",
    "tr>=4 order:treasures",
    "-t:monster deck:door",
    "s:bench-07 order:gold",
    "kind:race or kind:class",
    "is:valid t:item",
    "(lvl>>3 t:monstr",
    "t:monster&page=40",
]

ADJECTIVES = [
    "Ancient",
    "Angry",
    "Bitter",
    "Blue",
    "Brave",
    "Cursed",
    "Dire",
    "Drunken",
    "Elder",
    "Fancy",
    "Feral",
    "Giant",
    "Golden",
    "Grim",
    "Haunted",
    "Holy",
    "Hungry",
    "Iron",
    "Jolly",
    "Lesser",
    "Lucky",
    "Mad",
    "Mighty",
    "Mutant",
    "Nasty",
    "Noble",
    "Petty",
    "Plaid",
    "Rabid",
    "Royal",
    "Rusty",
    "Sacred",
    "Shady",
    "Silent",
    "Sneaky",
    "Spiky",
    "Stinky",
    "Tiny",
    "Undead",
    "Unholy",
    "Vicious",
    "Wandering",
    "Wicked",
    "Wild",
    "Wise",
    "Wooden",
    "Zombie",
]
FLAVOUR = [
    "It smells of old socks and victory",
    "Nobody at the table trusts it",
    "The dice disagree",
    "Your cousin swears this is fair",
    "Best played with snacks nearby",
    "It hums when ignored",
    "Rumour says it once beat a dragon",
    "Do not feed it after midnight",
    "It came with the house",
    "Handle with oven gloves",
    "It was cheaper than it looks",
    "Shiny, but only on one side.",
]


class Command(BaseCommand):
    help = (
        "Benchmark: generate a catalog of --cards cards in a scratch database and time "
        f"{len(QUERIES)} representative API searches (p50 / p95; budget p95 <= 50 ms on "
        "SQLite and on PostgreSQL)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--cards", type=int, default=100_000, help="cards to generate")
        parser.add_argument("--sets", type=int, default=40, help="custom sets to spread them on")
        parser.add_argument("--rounds", type=int, default=15, help="timed runs of each query")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--keep",
            action="store_true",
            help="keep the scratch database afterwards and reuse it when it already holds the "
            "generated cards (on PostgreSQL: <name>_bench)",
        )
        parser.add_argument(
            "--only",
            choices=("search", "names"),
            help="time only the searches, or only name completion and lookups by name",
        )
        parser.add_argument(
            "--database-file",
            help="a SQLite file to build the catalog in and keep (reused when it already "
            "holds the generated cards); by default a temporary file, removed afterwards",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        keep = options["database_file"]
        if keep and connection.vendor != "sqlite":
            raise CommandError("--database-file is for SQLite (PostgreSQL uses <name>_bench)")
        # The bulk data files are not what is measured: none is made in the background.
        with (
            override_settings(BULK_DATA_AHEAD=False),
            scratch_database(Path(keep) if keep else None, keep_database=options["keep"]),
        ):
            self.run(options)

    def run(self, options: dict[str, Any]) -> None:
        if Card.objects.filter(card_set__official=False).count() == options["cards"]:
            self.stdout.write("reusing the catalog generated in --database-file")
        else:
            Card.objects.all().delete()
            CardSet.objects.all().delete()
            catalog_load(paths=default_fixture_paths(settings.BASE_DIR / "fixtures" / "sets"))
            official = catalog_cards()
            cards_validate(cards=official, deck=official)  # so is:valid has reports to read
            started = time.perf_counter()
            rng = random.Random(options["seed"])
            generated = generate(options["cards"], options["sets"], rng)
            self.stdout.write(
                f"generated {generated:,} cards in {options['sets']} custom sets "
                f"({time.perf_counter() - started:.1f} s)"
            )
        self.stdout.write(f"{Card.objects.count():,} cards in all, on {connection.vendor}")
        with connection.cursor() as cursor:
            # What autovacuum does to a table at rest: statistics for the planner, and on
            # PostgreSQL the visibility map that lets a count read an index alone.
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")

        # The in-process client calls itself "testserver"; let it in for the run only.
        with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
            client = Client()
            if options["only"] != "names":
                self.measure(client, rounds=options["rounds"])
            if options["only"] != "search":
                self.measure_names(client, rounds=options["rounds"])

    def measure(self, client: Client, *, rounds: int) -> None:
        samples: dict[str, list[float]] = {}
        for query in tqdm(QUERIES, desc="queries", unit="query"):
            text, _, page = query.partition("&page=")
            params = {"q": text, "page": page or "1"}
            response = client.get("/api/cards/", params)  # warm-up: caches, plans
            if response.status_code != 200:
                raise CommandError(f"{query!r} answered {response.status_code}")
            timings = []
            for _ in range(rounds):
                start = time.perf_counter()
                client.get("/api/cards/", params)
                timings.append((time.perf_counter() - start) * 1000)
            samples[query] = timings

        width = max(len(q) for q in QUERIES) + 2
        self.stdout.write(f"\n{'query':<{width}} {'p50 ms':>8} {'p95 ms':>8} {'total':>8}")
        for query, timings in samples.items():
            text, _, page = query.partition("&page=")
            total = client.get("/api/cards/", {"q": text, "page": page or "1"}).json()["total"]
            shown = query or "(empty: every card)"
            self.stdout.write(
                f"{shown:<{width}} {percentile(timings, 50):8.1f} {percentile(timings, 95):8.1f}"
                f" {total:>8,}"
            )
        everything = [t for timings in samples.values() for t in timings]
        p95 = percentile(everything, 95)
        self.stdout.write(
            f"\nall {len(everything)} requests: p50 {percentile(everything, 50):.1f} ms, "
            f"p95 {p95:.1f} ms, mean {statistics.fmean(everything):.1f} ms "
            f"(budget p95 <= {BUDGET_P95_MS:.0f} ms on {connection.vendor}: "
            f"{'met' if p95 <= BUDGET_P95_MS else 'NOT met'})"
        )

    def measure_names(self, client: Client, *, rounds: int) -> None:
        """Name completion (budget p95 <= 10 ms) and lookups by name, each timed apart."""
        # A name found nowhere is a 404 on purpose here: not worth a log line per request.
        logging.getLogger("django.request").setLevel(logging.ERROR)
        for title, address, asked in (
            ("autocomplete", "/api/cards/autocomplete/?q=", PREFIXES),
            ("named", "/api/cards/named/?", NAMED),
        ):
            timings = []
            for text in asked:
                client.get(address + text)  # warm-up
                for _ in range(rounds):
                    start = time.perf_counter()
                    response = client.get(address + text)
                    timings.append((time.perf_counter() - start) * 1000)
                    if response.status_code >= 500:
                        raise CommandError(f"{address}{text} answered {response.status_code}")
            p95 = percentile(timings, 95)
            budget = AUTOCOMPLETE_BUDGET_P95_MS if title == "autocomplete" else BUDGET_P95_MS
            self.stdout.write(
                f"{title}: {len(timings)} requests over {len(asked)} inputs, p50 "
                f"{percentile(timings, 50):.1f} ms, p95 {p95:.1f} ms (budget p95 <= "
                f"{budget:.0f} ms on {connection.vendor}: {'met' if p95 <= budget else 'NOT met'})"
            )


def percentile(values: list[float], percent: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(percent / 100 * (len(ordered) - 1)))]


def generate(count: int, set_count: int, rng: random.Random) -> int:
    """Bulk-create `count` cards in `set_count` custom sets, modelled on the official cards."""
    templates = list(Card.objects.filter(card_set__official=True))
    tags = _rows_by_card(CardTag.objects.values_list("card_id", "tag"))
    facets = _rows_by_card(CardFacet.objects.values_list("card_id", "facet", "value"))
    sets = CardSet.objects.bulk_create(
        CardSet(code=f"bench-{n:02d}", name=f"Bench Set {n}", official=False, year=2026)
        for n in range(1, set_count + 1)
    )
    made = 0
    with tqdm(total=count, desc="cards", unit="card") as progress, transaction.atomic():
        for index, card_set in enumerate(sets):
            wanted = count // set_count + (1 if index < count % set_count else 0)
            names: set[str] = set()
            batch = []
            for _ in range(wanted):
                template = rng.choice(templates)
                name = _fresh_name(f"{rng.choice(ADJECTIVES)} {template.name}", names)
                batch.append((template, _variant(template, name, card_set, rng)))
            created = Card.objects.bulk_create([card for _, card in batch], batch_size=2000)
            CardTag.objects.bulk_create(
                (
                    CardTag(card=card, tag=tag[0])
                    for (t, _), card in zip(batch, created, strict=True)
                    for tag in tags.get(t.pk, [])
                ),
                batch_size=5000,
            )
            CardFacet.objects.bulk_create(
                (
                    CardFacet(card=card, facet=f, value=v)
                    for (t, _), card in zip(batch, created, strict=True)
                    for f, v in facets.get(t.pk, [])
                ),
                batch_size=5000,
            )
            made += len(created)
            progress.update(len(created))
    return made


def _rows_by_card(rows: Any) -> dict[int, list[tuple[str, ...]]]:
    grouped: dict[int, list[tuple[str, ...]]] = {}
    for card_id, *rest in rows:
        grouped.setdefault(card_id, []).append(tuple(rest))
    return grouped


def _fresh_name(name: str, taken: set[str]) -> str:
    candidate, number = name[:70], 1
    while candidate in taken or card_slug(candidate) in taken:
        number += 1
        candidate = f"{name[:64]} {number}"
    taken.update((candidate, card_slug(candidate)))
    return candidate


def _variant(template: Card, name: str, card_set: CardSet, rng: random.Random) -> Card:
    document = copy.deepcopy(template.document)
    document["name"] = name
    numbers: dict[str, Any] = {}
    for field, low, high in (("level", 1, 20), ("treasures", 1, 5), ("bonus", 1, 5)):
        if getattr(template, field) is not None:
            numbers[field] = document[field] = rng.randint(low, high)
    if template.gold is not None:
        numbers["gold"] = document["gold"] = rng.randrange(0, 1100, 100)
    # Every indexed column as the template has it, then the ones this variant changes.
    columns = {
        f.attname: getattr(template, f.attname)
        for f in Card._meta.concrete_fields
        if not f.primary_key and f.attname not in ("card_set_id", "created_at", "updated_at")
    }
    changed = {
        "name": name,
        "name_key": name_key(name),
        "slug": card_slug(name),
        "document": document,
        "document_hash": document_hash(document),
        "text": f"{template.text} {rng.choice(FLAVOUR).strip('.')}.".strip(),
    }
    return Card(**(columns | numbers | changed), card_set=card_set)
