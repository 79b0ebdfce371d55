"""Writes to cards. Every card write goes through card_write, which records each save as a
revision and refreshes the rows search reads; the authoring writes check that the actor may
make the change (PermissionDenied otherwise), so no page, endpoint or script can forget to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.files.base import File
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from catalog.changes import CatalogChange, catalog_changed
from catalog.images import picture_redrawn
from catalog.models import Card, CardFacet, CardRevision, CardSet, CardTag
from catalog.names import name_key
from catalog.search.facets import card_facets
from catalog.selectors import catalog_cards
from catalog.services.sets import Actor, require_edit
from validator.engine import (
    LANGUAGE_VERSION,
    CardBase,
    CardDocumentError,
    DocumentError,
    document_hash,
    dump_card,
    parse_card,
    render_text,
)
from validator.services import cards_validate

MAX_CARDS_PER_SET = 2000


# Pages under a set's address (/sets/<code>/help/, /sets/<code>/propose/) that a card's
# address (/sets/<code>/<slug>/) must never hide.
RESERVED_CARD_SLUGS = frozenset({"help", "propose"})


def card_slug(name: str) -> str:
    slug = slugify(name.replace(",", "")) or "card"
    return f"{slug}-card" if slug in RESERVED_CARD_SLUGS else slug


def card_columns(card: CardBase) -> dict[str, Any]:
    """The indexed columns, all derived from the typed card."""
    document = dump_card(card)
    return {
        "name": card.name,
        "name_key": name_key(card.name),
        "slug": card_slug(card.name),
        "document": document,
        "document_hash": document_hash(document),
        "language_version": LANGUAGE_VERSION,
        "deck": card.deck or "",
        "kind": card.kind_name,
        "copies": card.copies,
        "level": getattr(card, "level", None),
        "treasures": getattr(card, "treasures", None),
        "levels_gained": getattr(card, "levels_gained", None),
        "bonus": getattr(card, "bonus", None),
        "gold": getattr(card, "gold", None),
        "slot": getattr(card, "slot", None) or "",
        "big": bool(getattr(card, "big", False)),
        "tags": list(card.tags),
        "encoding": card.encoding.status,
        "text": render_text(card),
    }


def _index_rows(card_row: Card, card: CardBase) -> tuple[list[CardTag], list[CardFacet]]:
    """The rows search looks up for a card: tags (Big counts as the tag `big`) and facets."""
    tags = set(card_row.tags)
    if card_row.big:
        tags.add("big")
    return (
        [CardTag(card=card_row, tag=tag) for tag in sorted(tags)],
        [CardFacet(card=card_row, facet=f, value=v) for f, v in sorted(card_facets(card))],
    )


def card_index_refresh(*, card_row: Card, card: CardBase) -> None:
    """Replace the rows search looks up for a card (`_index_rows`)."""
    tags, facets = _index_rows(card_row, card)
    CardTag.objects.filter(card=card_row).delete()
    CardTag.objects.bulk_create(tags)
    CardFacet.objects.filter(card=card_row).delete()
    CardFacet.objects.bulk_create(facets)


def _revision_row(
    row: Card,
    columns: dict[str, Any],
    *,
    actor: User | None,
    source: str,
    proposed_by: User | None = None,
    evidence: str = "",
) -> CardRevision:
    return CardRevision(
        card=row,
        number=row.revision,
        document=columns["document"],
        document_hash=columns["document_hash"],
        changed_by=actor,
        source=source[:200],
        proposed_by=proposed_by,
        evidence=evidence,
    )


class StaleRevisionError(Exception):
    """The card was saved by someone else since the edit began; nothing was written."""

    def __init__(self, card: Card, base_revision: int) -> None:
        self.card = card
        self.base_revision = base_revision
        super().__init__(
            f"{card.name!r} is at revision {card.revision}; this edit started from revision "
            f"{base_revision}"
        )


def card_write(
    *,
    card_set: CardSet,
    typed: CardBase,
    actor: User | None,
    source: str,
    row: Card | None = None,
    base_revision: int | None = None,
    proposed_by: User | None = None,
    evidence: str = "",
    checked_after: bool = False,
) -> Card:
    """Create (`row` None) or replace a card from its typed definition, recording the saved
    document as a new revision; the one path every writer (loads, editor, API, imports,
    reverts) takes. With `base_revision`, the write happens only if the card is still at that
    revision, checked and bumped in one UPDATE so two concurrent saves cannot both succeed:
    the later raises StaleRevisionError and changes nothing. `proposed_by` and `evidence`
    record, on the revision, the player whose proposal a curator (`actor`) accepted. Once the
    write commits, every app hears of the saved card (catalog/changes.py): its check, face and
    own scenarios are queued or run then, unless `checked_after` (a load, which draws and
    checks its cards in one pass when it is done)."""
    columns = card_columns(typed)
    with transaction.atomic():
        if row is None:
            row = Card.objects.create(card_set=card_set, revision=1, **columns)
        else:
            current = row.revision if base_revision is None else base_revision
            bumped = Card.everything.filter(pk=row.pk, revision=current).update(
                revision=current + 1
            )
            if not bumped:
                row.refresh_from_db()
                raise StaleRevisionError(row, current)
            for key, value in columns.items():
                setattr(row, key, value)
            row.revision = current + 1
            row.card_set = card_set
            row.save()
        _revision_row(
            row, columns, actor=actor, source=source, proposed_by=proposed_by, evidence=evidence
        ).save(force_insert=True)
        card_index_refresh(card_row=row, card=typed)
        catalog_changed(CatalogChange.saved([row.pk], checked_after=checked_after))
    return row


def cards_create(
    *,
    card_set: CardSet,
    cards: Sequence[tuple[CardBase, dict[str, Any]]],
    actor: User | None,
    source: str,
    checked_after: bool = False,
) -> list[Card]:
    """Create new cards, each with its provenance, as `card_write` creates one (revision 1 and
    its revision row, tags and facets, the change told), in four inserts however many there
    are: loading a set the database does not hold yet (a new catalog, each test's catalog) is
    a few hundred cards at once. The caller has made sure no card of these names is in the
    set."""
    columns = [card_columns(typed) for typed, _ in cards]
    with transaction.atomic():
        rows = Card.objects.bulk_create(
            [
                Card(card_set=card_set, revision=1, provenance=provenance, **card)
                for card, (_, provenance) in zip(columns, cards, strict=True)
            ]
        )
        CardRevision.objects.bulk_create(
            [
                _revision_row(row, card, actor=actor, source=source)
                for row, card in zip(rows, columns, strict=True)
            ]
        )
        index = [_index_rows(row, typed) for row, (typed, _) in zip(rows, cards, strict=True)]
        CardTag.objects.bulk_create([tag for tags, _ in index for tag in tags])
        CardFacet.objects.bulk_create([facet for _, facets in index for facet in facets])
        catalog_changed(CatalogChange.saved([row.pk for row in rows], checked_after=checked_after))
    return rows


def _typed(document: Any) -> CardBase:
    if not isinstance(document, dict):
        raise CardDocumentError([DocumentError("", "a card document is a mapping of keys")])
    return parse_card(document)


def _check_name_free(card_set: CardSet, typed: CardBase, exclude: Card | None) -> None:
    others = Card.objects.filter(card_set=card_set)
    if exclude is not None:
        others = others.exclude(pk=exclude.pk)
    if others.filter(name__iexact=typed.name).exists():
        raise CardDocumentError(
            [DocumentError("name", f"the set already has a card named {typed.name!r}")]
        )
    if others.filter(slug=card_slug(typed.name)).exists():
        raise CardDocumentError(
            [
                DocumentError(
                    "name",
                    f"{typed.name!r} would have the same web address as another card of "
                    "the set; change a word",
                )
            ]
        )


def card_create(*, card_set: CardSet, actor: Actor, document: Any, source: str = "editor") -> Card:
    """Add a card to a set from its document; the validator checks it in the background
    (catalog/validation.py). Raises CardDocumentError (every error with its path) when the
    document does not parse, or its name is taken in the set."""
    user = require_edit(actor, card_set)
    typed = _typed(document)
    if Card.objects.filter(card_set=card_set).count() >= MAX_CARDS_PER_SET:
        raise CardDocumentError(
            [DocumentError("", f"a set holds at most {MAX_CARDS_PER_SET} cards")]
        )
    try:
        with transaction.atomic():
            _check_name_free(card_set, typed, exclude=None)
            card = card_write(card_set=card_set, typed=typed, actor=user, source=source)
    except IntegrityError as exc:  # the same name saved at the same moment by another request
        raise CardDocumentError(
            [DocumentError("name", f"the set already has a card named {typed.name!r}")]
        ) from exc
    return card


def card_update(
    *, card: Card, actor: Actor, document: Any, base_revision: int, source: str = "editor"
) -> Card:
    """Save a new version of a card, checked by the validator in the background (as a new
    card is). `base_revision` is the revision the edit started from: if the card has been
    saved since, StaleRevisionError is raised and nothing is written."""
    user = require_edit(actor, card.card_set)
    typed = _typed(document)
    with transaction.atomic():
        _check_name_free(card.card_set, typed, exclude=card)
        saved = card_write(
            row=card,
            card_set=card.card_set,
            typed=typed,
            actor=user,
            source=source,
            base_revision=base_revision,
        )
    return saved


def card_validate(card: Card) -> None:
    """Check a saved card in the engine at once, in the caller's request, so its report is
    there when it is next shown (a curator's accepted proposal). Its whole set is the deck it
    is met in during whole games."""
    deck = catalog_cards(set_codes=[card.card_set.code])
    cards_validate(cards=[(card.card_set.code, card.document)], deck=deck)


def card_revert(*, card: Card, actor: Actor, number: int, base_revision: int) -> Card:
    """Save an earlier revision's document as the newest revision (history is kept)."""
    revision = CardRevision.objects.filter(card=card, number=number).first()
    if revision is None:
        raise CardDocumentError([DocumentError("revision", f"{card.name!r} has no r{number}")])
    return card_update(
        card=card,
        actor=actor,
        document=revision.document,
        base_revision=base_revision,
        source=f"revert to r{number}",
    )


def card_delete(*, card: Card, actor: Actor) -> None:
    """Delete a card softly: it leaves the set, search and packs; it can be restored."""
    require_edit(actor, card.card_set)
    card.deleted_at = timezone.now()
    card.save(update_fields=["deleted_at", "updated_at"])
    catalog_changed()


def card_restore(*, card: Card, actor: Actor) -> Card:
    """Bring a deleted card back, unless another card has taken its name meanwhile."""
    require_edit(actor, card.card_set)
    with transaction.atomic():
        _check_name_free(card.card_set, card.typed, exclude=card)
        card.deleted_at = None
        card.save(update_fields=["deleted_at", "updated_at"])
        catalog_changed()
    return card


def card_art_set(*, card: Card, actor: Actor, upload: UploadedFile[bytes]) -> Card:
    """Keep an uploaded picture as the card's art, drawn again without its metadata (EXIF,
    GPS, camera, text chunks) and shrunk to what a face uses (catalog.images): the one path by
    which art is kept, whoever uploads it. PictureError, with nothing kept, when it is over
    the limits or not a picture."""
    require_edit(actor, card.card_set)
    clean = picture_redrawn(upload, noun="art", keep_png=True)
    if card.art:
        card.art.delete(save=False)
    card.art.save(f"{card.card_set.code}-{card.slug}{_suffix(clean)}", clean, save=False)
    card.save(update_fields=["art", "updated_at"])
    catalog_changed(CatalogChange(art_changed=(card.pk,)))  # the art is drawn on the face
    return card


def _suffix(upload: File[bytes]) -> str:
    name = (upload.name or "").lower()
    for suffix in (".png", ".jpg", ".jpeg", ".webp"):
        if name.endswith(suffix):
            return suffix
    return ".img"
