"""Reads for packs: the user's packs, and the cards a pack may be built from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db.models import Q, QuerySet
from django.utils import timezone

from catalog.models import Card, CardSet
from catalog.search import QueryTooComplex
from catalog.selectors import Viewer, card_search, listed_sets, visible_sets
from packs.models import Pack, TtsExport, TtsSheet
from prints.models import JobStatus
from prints.selectors import face_cache_key
from validator.engine import CardBase, dump_card, nearest_word


def packs_of(*, viewer: Viewer) -> QuerySet[Pack]:
    """The packs a user built (packs are their builder's own)."""
    if not viewer.is_authenticated:
        return Pack.objects.none()
    return Pack.objects.filter(owner_id=viewer.pk)


def pack_get(*, pack_id: int, viewer: Viewer) -> Pack | None:
    """One of the viewer's packs, or None."""
    return packs_of(viewer=viewer).filter(pk=pack_id).first()


class PackBuildError(Exception):
    """A pack that cannot be built as asked; nothing was written. Errors name their field."""

    def __init__(self, errors: list[tuple[str, str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{path}: {message}" for path, message in errors))


def pack_sets(*, actor: Viewer | None, set_codes: Sequence[str]) -> list[CardSet]:
    """The sets a pack draws from, as the actor may see them (None: the site, every set)."""
    if not set_codes:
        raise PackBuildError([("sets", "choose at least one set")])
    pool = CardSet.objects.all() if actor is None else visible_sets(viewer=actor)
    found = {s.code: s for s in pool.filter(code__in=set_codes)}
    # Hints name only listed sets: an unlisted set is reached by its code, never suggested.
    listed = CardSet.objects.all() if actor is None else listed_sets(viewer=actor)
    known = list(listed.values_list("code", flat=True))
    errors = []
    for index, code in enumerate(set_codes):
        if code not in found:
            hint = nearest_word(code, known)
            message = f"unknown set {code!r}" + (f"; did you mean {hint!r}?" if hint else "")
            errors.append((f"sets[{index}]", message))
    if errors:
        raise PackBuildError(errors)
    return [found[code] for code in dict.fromkeys(set_codes)]


def pack_candidates(
    *,
    actor: Viewer | None,
    set_codes: Sequence[str],
    query: str = "",
    include: Sequence[int] = (),
    include_sets: Sequence[str] = (),
) -> list[Card]:
    """The cards a pack may hold before copies and exclusions: those of the sets, narrowed by
    a search query (a query with warnings is refused, not half-applied), plus single cards.

    Card ids are sequential, so an `include`d id reaches a card of a set listed for the
    actor, of one of the pack's sets, or of a set named in `include_sets` (the sets of the
    builder's "Name@set-code" lines): an unlisted set only by its code."""
    sets = pack_sets(actor=actor, set_codes=set_codes)
    cards = Card.objects.select_related("card_set").filter(card_set__in=sets)
    if query.strip():
        try:
            matched, warnings = card_search(query=query, viewer=actor)
        except QueryTooComplex as exc:
            raise PackBuildError([("query", str(exc))]) from exc
        if warnings:
            raise PackBuildError([("query", warning) for warning in warnings])
        cards = cards.filter(pk__in=matched.values("pk"))
    chosen = {c.pk: c for c in cards}
    if include:
        pool = Card.objects.all()
        if actor is not None:
            named = visible_sets(viewer=actor).filter(code__in=[*set_codes, *include_sets])
            pool = pool.filter(Q(card_set__in=listed_sets(viewer=actor)) | Q(card_set__in=named))
        extra = {c.pk: c for c in pool.select_related("card_set").filter(pk__in=include)}
        missing = sorted(set(include) - set(extra))
        if missing:
            raise PackBuildError([("include", f"no card with id {i}") for i in missing])
        chosen.update(extra)
    return sorted(chosen.values(), key=lambda c: (c.card_set.code, c.name))


class StoredPacks:
    """The packs app's answer to prints.sources.PackSource: the viewer's own packs."""

    def choices(self, *, viewer: Viewer) -> list[tuple[int, str]]:
        return [(p.pk, p.name) for p in packs_of(viewer=viewer)]

    def document(self, *, pack_id: int, viewer: Viewer) -> dict[str, Any] | None:
        pack = pack_get(pack_id=pack_id, viewer=viewer)
        return pack.document if pack is not None else None


class DrawnFaces:
    """A pack's faces already in the "faces" cache, for the Tabletop Simulator exporter (its
    FaceSource): (set code, card) -> the PNG, read from the cache when asked, or None.

    A page face is used only where it is exactly what the exporter would draw: the catalog's
    card of that set and name holds the very document the pack holds, and has no uploaded art
    (the page draws the art; the export draws each card without it)."""

    def __init__(self, keys: Mapping[tuple[str, str], str]) -> None:
        self.keys = dict(keys)

    def __len__(self) -> int:
        return len(self.keys)

    def __call__(self, set_code: str, card: CardBase) -> bytes | None:
        key = self.keys.get((set_code, card.name))
        if key is None:
            return None
        png = caches["faces"].get(key)
        return png if isinstance(png, bytes) else None


def pack_drawn_faces(*, document: Mapping[str, Any]) -> DrawnFaces:
    """The faces of a pack document's cards that were drawn ahead (see DrawnFaces): one query
    for the catalog's cards of the pack's sets and names, then a look in the cache for each.
    A card is the pack's when its document, written out as a pack writes it, is the pack's."""
    decks = document.get("decks") or {}
    in_decks = {
        (str(entry.get("set")), str(entry.get("name")))
        for name in ("door", "treasure")
        for entry in decks.get(name) or []
    }
    wanted: dict[tuple[str, str], Any] = {}
    for card_set in document.get("sets", []):
        for card in card_set.get("cards", []):
            where = (str(card_set.get("code")), str(card.get("name")))
            if where in in_decks:  # only those have a face on a sheet
                wanted[where] = card
    rows = Card.objects.select_related("card_set").filter(
        card_set__code__in={code for code, _ in wanted},
        name__in={name for _, name in wanted},
        art="",
    )
    faces = caches["faces"]
    keys: dict[tuple[str, str], str] = {}
    for row in rows:
        where = (row.card_set.code, row.name)
        if where not in wanted or dump_card(row.typed) != wanted[where]:
            continue
        key = face_cache_key(row)
        if faces.has_key(key):
            keys[where] = key
    return DrawnFaces(keys)


def tts_export_get(*, export_id: int, pack: Pack, viewer: Viewer) -> TtsExport | None:
    """One of the viewer's Tabletop Simulator exports of `pack`, or None."""
    if not viewer.is_authenticated:
        return None
    return TtsExport.objects.filter(pk=export_id, pack=pack, owner_id=viewer.pk).first()


def tts_exports_of(*, pack: Pack, viewer: Viewer, limit: int = 5) -> list[TtsExport]:
    """The viewer's latest Tabletop Simulator exports of `pack`, newest first."""
    if not viewer.is_authenticated:
        return []
    return list(TtsExport.objects.filter(pack=pack, owner_id=viewer.pk)[:limit])


def tts_export_latest_done(*, pack: Pack, viewer: Viewer) -> TtsExport | None:
    """The viewer's latest finished, unexpired Tabletop Simulator export of `pack`."""
    if not viewer.is_authenticated:
        return None
    cutoff = timezone.now() - timedelta(hours=settings.TTS_EXPORT_KEEP_HOURS)
    return (
        TtsExport.objects.filter(
            pack=pack, owner_id=viewer.pk, status=JobStatus.DONE, finished_at__gt=cutoff
        )
        .order_by("-finished_at", "-id")
        .first()
    )


def sets_all_public(*, set_codes: Sequence[str]) -> bool:
    """Whether every one of these sets exists (not in the trash) and is official or public:
    what anyone may see, so images drawn only from them need no secret address."""
    if not set_codes:
        return False
    public = CardSet.objects.filter(code__in=set_codes).filter(
        Q(official=True) | Q(visibility="public")
    )
    return public.count() == len(set(set_codes))


def _served_sheets() -> QuerySet[TtsSheet]:
    """The images of finished exports not yet expired."""
    cutoff = timezone.now() - timedelta(hours=settings.TTS_EXPORT_KEEP_HOURS)
    return TtsSheet.objects.select_related("export").filter(
        export__status=JobStatus.DONE, export__finished_at__gt=cutoff
    )


def tts_sheet_public(*, sha256: str) -> TtsSheet | None:
    """The image with this hash of a public export whose sets are all still public, or None
    (a private pack's image is never served at the address without a token)."""
    for sheet in _served_sheets().filter(sha256=sha256, export__public=True)[:20]:
        if sets_all_public(set_codes=sheet.export.set_codes):
            return sheet
    return None


def tts_sheet_with_token(*, token: str, sha256: str) -> TtsSheet | None:
    """The image with this hash of the export whose link is `token`, or None (a revoked or
    unknown token, an expired export, an image of another export)."""
    if not token:
        return None
    return _served_sheets().filter(sha256=sha256, export__token=token).first()
