"""Making the bulk data files: every public card, every public set with its cards, and the
engine-ready pack of the official sets, each one gzip-compressed JSON file in the media storage
under a content-hashed name (so it may be cached for good), listed by `GET /api/bulk-data/`.

A file is made again only when what it is made from has changed (`BulkFile.source`: the
cards' documents, revisions and art, their sets, and their validation reports, so that a card
checked after it was saved is shown checked once the check is stored; and the code that made
what the files say of them, `_made_by`), and the file it replaces is kept until the next
change, so a download that started before is never cut short."""

from __future__ import annotations

import gzip
import hashlib
import json
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from bulk.models import BulkFile, BulkKind
from catalog.api.serializers import CardOutput, CardSetOutput
from catalog.exports import exporter_get
from catalog.models import Card, CardSet
from catalog.selectors import listed_sets, set_list
from packs.services import pack_build
from prints.faces import face_version
from validator.checks import check_version
from validator.selectors import checks_for

# Cards read from the database at a time while a file is written.
CHUNK = 2000
STORAGE_FOLDER = "bulk-data"

Progress = Callable[[str, int, int], None]


class SiteAddress:
    """What the API's serializers ask of a request, for files made with no request: absolute
    addresses on SITE_URL when it is set, else addresses from the site's root ("/sets/...")."""

    def build_absolute_uri(self, location: str) -> str:
        return f"{settings.SITE_URL}{location}"


@dataclass
class BulkRefresh:
    kind: str
    written: bool
    file: BulkFile


def _public_cards() -> Any:
    return (
        Card.objects.filter(card_set__in=listed_sets(viewer=AnonymousUser()))
        .select_related("card_set")
        .order_by("card_set__code", "name", "pk")
    )


def _digest(rows: Iterable[Iterable[Any]]) -> str:
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(list(row), default=str).encode())
    return digest.hexdigest()


def _made_by() -> tuple[str, ...]:
    """The code behind what a card object says beyond its document: its `validation` (the
    reports are kept under `check_version`, the digest of the engine's and the checks' source;
    a card's `text` comes from the same engine) and its `image` (the face's address carries
    `face_version`). A deploy that changes either makes the files again."""
    return ("made by", check_version(), face_version())


def _cards_source(cards: Any) -> list[tuple[Any, ...]]:
    rows = list(
        cards.values_list(
            "pk", "card_set__code", "document_hash", "revision", "art", "updated_at"
        ).iterator(chunk_size=CHUNK)
    )
    checks = checks_for(document_hashes={row[2] for row in rows})
    return [(*row, getattr(checks.get(row[2]), "status", None)) for row in rows]


def _sets_source() -> list[tuple[Any, ...]]:
    return list(
        listed_sets(viewer=AnonymousUser())
        .order_by("code")
        .values_list(
            "code", "name", "visibility", "description", "year", "cards_in_box", "updated_at"
        )
    )


def _card_objects(cards: Any, on_card: Callable[[], None]) -> Iterator[dict[str, Any]]:
    address = SiteAddress()
    batch: list[Card] = []

    def flush() -> Iterator[dict[str, Any]]:
        context = {
            "request": address,
            "checks": checks_for(document_hashes=[c.document_hash for c in batch]),
        }
        for data in CardOutput(batch, many=True, context=context).data:
            on_card()
            yield dict(data)

    for card in cards.iterator(chunk_size=CHUNK):
        batch.append(card)
        if len(batch) == CHUNK:
            yield from flush()
            batch = []
    if batch:
        yield from flush()


def _write_json_array(out: IO[bytes], items: Iterable[Any]) -> int:
    # mtime=0: the same content gives the same bytes, hence the same name and digest.
    count = 0
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as zipped:
        zipped.write(b"[")
        for item in items:
            zipped.write((b",\n" if count else b"\n") + json.dumps(item).encode())
            count += 1
        zipped.write(b"\n]\n")
    return count


def _listed_set_ids() -> set[int]:
    return set(listed_sets(viewer=AnonymousUser()).values_list("pk", flat=True))


def _official_set_ids() -> set[int]:
    return set(CardSet.objects.filter(official=True).values_list("pk", flat=True))


def _store(
    kind: str,
    source: str,
    write: Callable[[IO[bytes]], int],
    held: Callable[[], set[int]],
    source_after: Callable[[], str] | None = None,
) -> BulkRefresh:
    """Write the file of `kind` unless its current one was made from `source`. Making it may
    change its sources (the pack's build checks cards never checked): `source_after` then
    says what the file was made from. `held` says which sets the file may hold: asked before
    and after writing, so a set listed at any moment of the write is recorded."""
    current = BulkFile.objects.filter(kind=kind).first()
    if current is not None and current.source == source and default_storage.exists(current.name):
        return BulkRefresh(kind, False, current)
    set_ids = held()
    with tempfile.TemporaryFile() as out:
        items = write(out)
        set_ids |= held()
        size = out.tell()
        out.seek(0)
        digest = hashlib.file_digest(out, "sha256").hexdigest()
        out.seek(0)
        name = f"{STORAGE_FOLDER}/{kind}-{digest[:20]}.json.gz"
        if not default_storage.exists(name):
            saved = default_storage.save(name, File(out))
            if saved != name:  # the storage renamed it: the name must stay the digest's
                default_storage.delete(saved)
                raise RuntimeError(f"the storage would not keep {name}")
    if source_after is not None:
        source = source_after()
    with transaction.atomic():
        row, _ = BulkFile.objects.select_for_update().get_or_create(
            kind=kind,
            defaults={
                "name": name,
                "sha256": digest,
                "size": size,
                "items": items,
                "source": source,
                "updated_at": timezone.now(),
                "set_ids": sorted(set_ids),
            },
        )
        older = row.previous_name if row.name != name else ""
        if row.name != name:
            row.previous_name, row.previous_set_ids = row.name, row.set_ids
        row.name, row.sha256, row.size, row.items = name, digest, size, items
        row.set_ids = sorted(set_ids)
        row.source, row.updated_at = source, timezone.now()
        row.save()
    if older and older not in (row.name, row.previous_name):
        transaction.on_commit(lambda: default_storage.delete(older))
    return BulkRefresh(kind, True, row)


def _refresh_cards(progress: Progress) -> BulkRefresh:
    cards = _public_cards()
    source = _digest([_made_by(), *_cards_source(cards)])
    total = cards.count()
    done = 0

    def one() -> None:
        nonlocal done
        done += 1
        if done % 500 == 0 or done == total:
            progress(BulkKind.CARDS, done, total)

    return _store(
        BulkKind.CARDS,
        source,
        lambda out: _write_json_array(out, _card_objects(cards, one)),
        _listed_set_ids,
    )


def _refresh_sets(progress: Progress) -> BulkRefresh:
    cards = _public_cards()
    source = _digest([_made_by(), *_sets_source(), *_cards_source(cards)])
    sets = list(set_list(viewer=AnonymousUser()))
    address = SiteAddress()

    def objects() -> Iterator[dict[str, Any]]:
        for index, card_set in enumerate(sets, start=1):
            data = dict(CardSetOutput(card_set, context={"request": address}).data)
            data["cards"] = list(_card_objects(cards.filter(card_set=card_set), lambda: None))
            progress(BulkKind.SETS, index, len(sets))
            yield data

    return _store(
        BulkKind.SETS, source, lambda out: _write_json_array(out, objects()), _listed_set_ids
    )


def _refresh_official_pack(progress: Progress) -> BulkRefresh:
    official = Card.objects.filter(card_set__official=True)
    codes = sorted(CardSet.objects.filter(official=True).values_list("code", flat=True))

    def source() -> str:
        return _digest([(check_version(),), *_cards_source(official)])

    def write(out: IO[bytes]) -> int:
        built = pack_build(actor=None, set_codes=codes, name="Official sets")
        _, _, content = exporter_get("pack-json").render(document=built.document)
        with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as zipped:
            zipped.write(content)
        progress(BulkKind.OFFICIAL_PACK, 1, 1)
        return built.card_count

    return _store(BulkKind.OFFICIAL_PACK, source(), write, _official_set_ids, source_after=source)


def bulk_data_refresh(
    *, kinds: Iterable[str] | None = None, progress: Progress | None = None
) -> list[BulkRefresh]:
    """Make each bulk data file (`kinds`, default all) whose sources changed since it was last
    made; return, per kind, whether a file was written and the file now listed. `progress` is
    told (kind, done, total) along the way."""
    wanted = list(kinds) if kinds is not None else [k.value for k in BulkKind]
    unknown = sorted(set(wanted) - set(BulkKind.values))
    if unknown:
        raise ValueError(f"no bulk data kind {unknown[0]!r}; kinds: {', '.join(BulkKind.values)}")
    tell: Progress = progress or (lambda kind, done, total: None)
    # The pack first: building it checks the official cards never checked yet, whose reports
    # the card files then show.
    makers = {
        BulkKind.OFFICIAL_PACK: _refresh_official_pack,
        BulkKind.CARDS: _refresh_cards,
        BulkKind.SETS: _refresh_sets,
    }
    if not CardSet.objects.filter(official=True).exists():
        # No official set, no official pack: a site of custom sets alone still lists its cards.
        wanted = [kind for kind in wanted if kind != BulkKind.OFFICIAL_PACK]
    return [maker(tell) for kind, maker in makers.items() if kind in wanted]
