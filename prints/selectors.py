"""Reads for prints: card faces as the pages show them, and the cards a proxy sheet holds."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Final

from django.core.cache import caches
from django.db.models import Q

from catalog.exports import exporter_get
from catalog.models import Card, CardSet
from catalog.permissions import is_public
from catalog.search import QueryTooComplex
from catalog.selectors import Viewer, card_search, listed_sets, visible_sets
from prints.faces import face_version
from prints.sheets import ProxyCard, ProxyError
from validator.engine import nearest_word

# The registered exporter the faces the pages show (and the Tabletop Simulator sheets reuse)
# are drawn with.
FACE_EXPORTER: Final = "card-face"


def face_key(card: Card) -> str:
    """What a face is cached and addressed by: the document and what draws it (`face_version`:
    the renderer's version and the digest of the rules text's code).

    The face of a card of a set not public (unlisted, private) is addressed by a digest of
    its document *and its set's code*: its address is found by the card's id only with it
    (catalog.selectors.card_by_face), and a document is not secret (a card started from an
    official one holds that card's document), the set's code is."""
    # The art is drawn on the face: a new upload (a new file name) is a new address.
    art = f":{card.art.name}" if card.art else ""
    if is_public(card.card_set):
        if not art:
            return f"{card.document_hash[:16]}-{face_version()}"
        drawn = hashlib.sha256(f"{card.document_hash}{art}".encode()).hexdigest()
        return f"{drawn[:16]}-{face_version()}"
    bound = hashlib.sha256(f"{card.document_hash}:{card.card_set.code}{art}".encode()).hexdigest()
    return f"{bound[:16]}-{face_version()}"


def _art_bytes(card: Card) -> bytes | None:
    """The card's uploaded art, read for the renderer (which never reads storage itself);
    None when there is none or its file has gone (the face shows its ornament)."""
    if not card.art:
        return None
    try:
        with card.art.open("rb") as file:
            data: bytes = file.read()
    except OSError:
        return None
    return data


def face_cache_key(card: Card, key: str | None = None) -> str:
    """Where a card's current face is kept in the "faces" cache (`key`: its face key, when
    already worked out)."""
    # The face prints the set's code, so two sets holding the same document differ.
    return f"page-face:{key or face_key(card)}:{card.card_set.code}"


def card_face(*, card: Card) -> tuple[str, bytes]:
    """(face key, PNG) of a card, rendered once per document, set and `face_version`.

    Kept in the "faces" file cache, which every web process of the machine shares: drawing
    a face takes a fifth of a second, reading it back a millisecond."""
    key = face_key(card)
    cache_key = face_cache_key(card, key)
    faces = caches["faces"]
    png = faces.get(cache_key)
    if png is None:
        _, _, png = exporter_get(FACE_EXPORTER).render(
            card=card.typed, set_code=card.card_set.code, slug=card.slug, art=_art_bytes(card)
        )
        faces.set(cache_key, png, timeout=None)
    return key, png


def _proxy_card(card: Card, copies: int | None = None) -> ProxyCard:
    return ProxyCard(
        set_code=card.card_set.code,
        name=card.name,
        deck=card.deck or None,
        copies=copies if copies is not None else (card.copies or 1),
        document=dict(card.document),
        document_hash=card.document_hash,
        art=card.art.name or "",
    )


def proxy_cards_from_catalog(
    *,
    set_codes: Sequence[str] | None = None,
    query: str | None = None,
    names: Sequence[str] | None = None,
    viewer: Viewer | None = None,
) -> list[ProxyCard]:
    """Cards of the catalog to print, as the viewer may see them (None: the site itself, every
    set). ``set_codes``: every card of those sets (copies as in the box); ``query``: the
    cards a search finds (within ``set_codes`` when given); ``names``: a hand-picked list, one
    copy per mention (name a card twice for two copies), each name matched without regard to
    case, within ``set_codes`` when given (else within the sets listed for the viewer and
    those a "Name@set-code" names), "Name@set-code" to pick one set's printing."""
    pool = CardSet.objects.all() if viewer is None else visible_sets(viewer=viewer)
    # What a hint or a list may name: the sets listed for the viewer. An unlisted set is
    # reached by its code (a set code, `set:` in the query, "Name@code"), never suggested.
    listed = CardSet.objects.all() if viewer is None else listed_sets(viewer=viewer)
    cards = Card.objects.select_related("card_set").filter(card_set__in=pool)
    if set_codes is not None:
        codes = [code.strip() for code in set_codes if code.strip()]
        if not codes:
            raise ProxyError("no set given: name at least one set code")
        found = set(pool.filter(code__in=codes).values_list("code", flat=True))
        for code in codes:
            if code not in found:
                hint = nearest_word(code, list(listed.values_list("code", flat=True)))
                raise ProxyError(
                    f"unknown set {code!r}" + (f"; did you mean {hint!r}?" if hint else "")
                )
        cards = cards.filter(card_set__code__in=codes)
    elif names:
        named = {raw.rpartition("@")[2].strip() for raw in names if "@" in raw}
        cards = cards.filter(Q(card_set__in=listed) | Q(card_set__code__in=named))
    if query is not None and query.strip():
        if names:
            raise ProxyError("choose cards by a query or by name, not both")
        try:
            matched, warnings = card_search(query=query, viewer=viewer)
        except QueryTooComplex as exc:
            raise ProxyError(str(exc)) from exc
        if warnings:
            raise ProxyError(f"the query {query!r} is not understood: " + "; ".join(warnings))
        cards = cards.filter(pk__in=matched.values("pk"))
    if names:
        return _cards_by_name(cards, names)
    if query is None and set_codes is None:
        raise ProxyError("choose the cards: sets, a search query or card names")
    chosen = [_proxy_card(card) for card in cards.order_by("card_set__code", "name")]
    if not chosen:
        what = f"the query {query!r}" if query else "the sets " + ", ".join(set_codes or [])
        raise ProxyError(f"no cards to print: {what} selected none")
    return chosen


def _cards_by_name(cards: Any, names: Sequence[str]) -> list[ProxyCard]:
    rows: list[Card] = list(cards.order_by("card_set__code", "name"))
    by_name: dict[str, list[Card]] = {}
    for row in rows:
        by_name.setdefault(row.name.casefold(), []).append(row)
    counts: dict[tuple[str, str], int] = {}
    picked: dict[tuple[str, str], Card] = {}
    for raw in names:
        name, _, code = raw.strip().rpartition("@") if "@" in raw else (raw.strip(), "", "")
        name, code = name.strip(), code.strip()
        if not name:
            raise ProxyError("an empty card name was given")
        matches = [
            c for c in by_name.get(name.casefold(), []) if not code or c.card_set.code == code
        ]
        if not matches:
            hint = nearest_word(name, sorted({row.name for row in rows}))
            where = f" in set {code!r}" if code else ""
            raise ProxyError(
                f"unknown card {name!r}{where}" + (f"; did you mean {hint!r}?" if hint else "")
            )
        if len(matches) > 1:
            sets = ", ".join(c.card_set.code for c in matches)
            raise ProxyError(
                f"{name!r} is in several sets ({sets}): write it as {matches[0].name}@SET-CODE"
            )
        key = (matches[0].card_set.code, matches[0].name)
        picked[key] = matches[0]
        counts[key] = counts.get(key, 0) + 1
    return [_proxy_card(picked[key], counts[key]) for key in sorted(picked)]
