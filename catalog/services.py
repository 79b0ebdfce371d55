"""Writes to the catalog. Every write goes through a function here.

Loading set files (catalog_load) and the authoring writes (sets and cards of users). Every
authoring function checks that the actor may make the change (catalog.permissions) and raises
PermissionDenied otherwise, so a page, an API endpoint or a script cannot forget to. Every card
write goes through card_write, which records each save as a revision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from catalog.models import Card, CardFacet, CardRevision, CardSet, CardTag, Visibility
from catalog.permissions import can_edit_set
from catalog.search.facets import card_facets
from catalog.selectors import catalog_cards
from validator.engine import (
    LANGUAGE_VERSION,
    CardBase,
    CardDocumentError,
    DocumentError,
    SetDocument,
    document_hash,
    dump_card,
    format_path,
    load_set_file,
    parse_card,
    render_text,
)
from validator.services import cards_validate


class CatalogLoadError(Exception):
    """One or more set files do not parse; nothing was written."""

    def __init__(self, errors: list[CardDocumentError]) -> None:
        self.errors = errors
        super().__init__("; ".join(str(e) for e in errors))

    def lines(self) -> list[str]:
        return [line for error in self.errors for line in error.lines()]


@dataclass
class SetLoadReport:
    code: str
    name: str
    source: str
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    set_changed: bool = False


@dataclass
class CatalogLoadReport:
    sets: list[SetLoadReport]
    written: bool

    @property
    def changed(self) -> bool:
        return any(s.created or s.updated or s.set_changed for s in self.sets)


def card_slug(name: str) -> str:
    return slugify(name.replace(",", "")) or "card"


def _card_columns(card: CardBase) -> dict[str, Any]:
    """The indexed columns, all derived from the typed card."""
    document = dump_card(card)
    return {
        "name": card.name,
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


def _index(card_row: Card, card: CardBase) -> None:
    """The rows search looks up: tags (Big counts as the tag `big`) and facets."""
    CardTag.objects.filter(card=card_row).delete()
    tags = set(card_row.tags)
    if card_row.big:
        tags.add("big")
    CardTag.objects.bulk_create([CardTag(card=card_row, tag=tag) for tag in sorted(tags)])
    CardFacet.objects.filter(card=card_row).delete()
    CardFacet.objects.bulk_create(
        [CardFacet(card=card_row, facet=f, value=v) for f, v in sorted(card_facets(card))]
    )


def _set_fields(document: SetDocument) -> dict[str, Any]:
    info = document.set
    return {
        "name": info.name,
        "cards_in_box": info.cards_in_box,
        "official": info.official,
        "year": info.year,
        "description": info.description or "",
    }


def _check_slugs(document: SetDocument, source: str) -> None:
    seen: dict[str, str] = {}
    errors = []
    for index, card in enumerate(document.cards):
        slug = card_slug(card.name)
        if slug in seen:
            errors.append(
                DocumentError(
                    format_path(["cards", index, "name"]),
                    f"{card.name!r} has the same web address ({slug}) as {seen[slug]!r}; "
                    "rename one",
                )
            )
        seen[slug] = card.name
    if errors:
        raise CardDocumentError(errors, source)


def catalog_parse(*, paths: Sequence[Path]) -> list[tuple[Path, SetDocument]]:
    """Parse every set file, collecting every file's errors before giving up."""
    parsed: list[tuple[Path, SetDocument]] = []
    errors: list[CardDocumentError] = []
    codes: dict[str, Path] = {}
    for path in paths:
        try:
            document = load_set_file(path)
            _check_slugs(document, str(path))
        except CardDocumentError as exc:
            errors.append(exc)
            continue
        if document.set.code in codes:
            errors.append(
                CardDocumentError(
                    [
                        DocumentError(
                            "set.code",
                            f"set {document.set.code!r} is also defined in "
                            f"{codes[document.set.code]}",
                        )
                    ],
                    str(path),
                )
            )
            continue
        codes[document.set.code] = path
        parsed.append((path, document))
    if errors:
        raise CatalogLoadError(errors)
    return parsed


def catalog_load(
    *,
    paths: Sequence[Path],
    check_only: bool = False,
    changed_by: User | None = None,
) -> CatalogLoadReport:
    """Upsert the sets and cards of the given set files, by (set code, card name).

    All files are parsed before anything is written; any error raises CatalogLoadError and the
    database is left as it was. Running it again on the same files changes nothing. Cards that
    exist in the database but not in a file are kept (custom cards are never deleted by a load).
    With check_only, the report says what a load would do and nothing is written.
    """
    parsed = catalog_parse(paths=paths)
    with transaction.atomic():
        reports = [
            _load_set(path, document, write=not check_only, changed_by=changed_by)
            for path, document in parsed
        ]
    return CatalogLoadReport(sets=reports, written=not check_only)


def _load_set(
    path: Path, document: SetDocument, *, write: bool, changed_by: User | None
) -> SetLoadReport:
    report = SetLoadReport(code=document.set.code, name=document.set.name, source=str(path))
    wanted = _set_fields(document)
    card_set = CardSet.everything.filter(code=document.set.code).first()
    if card_set is None:
        report.set_changed = True
        if write:
            card_set = CardSet.objects.create(code=document.set.code, **wanted)
    elif card_set.deleted_at is not None or any(
        getattr(card_set, k) != v for k, v in wanted.items()
    ):
        report.set_changed = True  # a deleted set named by a file is restored by loading it
        if write:
            for key, value in wanted.items():
                setattr(card_set, key, value)
            card_set.deleted_at = None
            card_set.save()

    existing = {row.name: row for row in Card.objects.filter(card_set=card_set)} if card_set else {}
    source = f"load_catalog {path}"
    for card in document.cards:
        row = existing.get(card.name)
        if row is None:
            report.created.append(card.name)
            if write:
                assert card_set is not None
                card_write(card_set=card_set, typed=card, actor=changed_by, source=source)
        elif row.document_hash != document_hash(dump_card(card)) or row.text != render_text(card):
            report.updated.append(card.name)
            if write:
                card_write(
                    row=row, card_set=row.card_set, typed=card, actor=changed_by, source=source
                )
        else:
            report.unchanged.append(card.name)
    return report


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
) -> Card:
    """Create (`row` None) or replace a card from its typed definition, recording the saved
    document as a new revision; the one path every writer (loads, editor, API, imports,
    reverts) takes. With `base_revision`, the write happens only if the card is still at that
    revision, checked and bumped in one UPDATE so two concurrent saves cannot both succeed:
    the later raises StaleRevisionError and changes nothing."""
    columns = _card_columns(typed)
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
        CardRevision.objects.create(
            card=row,
            number=row.revision,
            document=columns["document"],
            document_hash=columns["document_hash"],
            changed_by=actor,
            source=source[:200],
        )
        _index(row, typed)
    return row


def default_fixture_paths(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.yaml") if p.is_file())


# --------------------------------------------------------------------------------------------
# Authoring: users' sets and cards
# --------------------------------------------------------------------------------------------

Actor = User | AnonymousUser

MAX_SETS_PER_USER = 200
MAX_CARDS_PER_SET = 2000


class SetError(Exception):
    """A set change that cannot be made, with the field it concerns."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def _require_edit(actor: Actor, card_set: CardSet) -> User:
    if not can_edit_set(actor, card_set):
        raise PermissionDenied(f"you may not change the set {card_set.code!r}")
    assert isinstance(actor, User)
    return actor


def _check_visibility(visibility: str) -> None:
    if visibility not in Visibility.values:
        raise SetError("visibility", f"must be one of {', '.join(Visibility.values)}")


def set_create(
    *,
    owner: Actor,
    code: str,
    name: str,
    visibility: str = Visibility.PRIVATE,
    description: str = "",
    cards_in_box: int | None = None,
) -> CardSet:
    """A new custom set owned by `owner` (private unless said otherwise)."""
    if not isinstance(owner, User) or not owner.is_active:
        raise PermissionDenied("log in to create a set")
    code = code.strip().lower()
    if not code or slugify(code) != code:
        raise SetError("code", "use lower-case letters, digits and hyphens, e.g. 'my-first-set'")
    if not name.strip():
        raise SetError("name", "give the set a name")
    _check_visibility(visibility)
    if CardSet.everything.filter(owner=owner).count() >= MAX_SETS_PER_USER:
        raise SetError("code", f"you already have {MAX_SETS_PER_USER} sets, the most allowed")
    try:
        with transaction.atomic():
            return CardSet.objects.create(
                code=code,
                name=name.strip(),
                official=False,
                owner=owner,
                visibility=visibility,
                description=description,
                cards_in_box=cards_in_box,
            )
    except IntegrityError as exc:
        raise SetError("code", f"the code {code!r} is taken; choose another") from exc


def set_update(
    *,
    card_set: CardSet,
    actor: Actor,
    name: str | None = None,
    visibility: str | None = None,
    description: str | None = None,
    cards_in_box: int | None = None,
) -> CardSet:
    """Change a set's name, visibility, description or box size (None leaves a field)."""
    _require_edit(actor, card_set)
    if name is not None:
        if not name.strip():
            raise SetError("name", "give the set a name")
        card_set.name = name.strip()
    if visibility is not None:
        _check_visibility(visibility)
        if card_set.official and visibility != Visibility.PUBLIC:
            raise SetError("visibility", "official sets are public")
        card_set.visibility = visibility
    if description is not None:
        card_set.description = description
    if cards_in_box is not None:
        card_set.cards_in_box = cards_in_box
    card_set.save()
    return card_set


def set_delete(*, card_set: CardSet, actor: Actor) -> None:
    """Delete a set softly: it disappears everywhere, and its owner can restore it."""
    _require_edit(actor, card_set)
    if card_set.official:
        raise PermissionDenied("official sets are not deleted from the site")
    card_set.deleted_at = timezone.now()
    card_set.save(update_fields=["deleted_at", "updated_at"])


def set_restore(*, card_set: CardSet, actor: Actor) -> CardSet:
    """Bring a deleted set back, with every card it had."""
    _require_edit(actor, card_set)
    card_set.deleted_at = None
    card_set.save(update_fields=["deleted_at", "updated_at"])
    return card_set


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
    """Add a card to a set from its document. Raises CardDocumentError (every error with its
    path) when the document does not parse, or its name is taken in the set."""
    user = _require_edit(actor, card_set)
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
    _validate(card)
    return card


def card_update(
    *, card: Card, actor: Actor, document: Any, base_revision: int, source: str = "editor"
) -> Card:
    """Save a new version of a card. `base_revision` is the revision the edit started from:
    if the card has been saved since, StaleRevisionError is raised and nothing is written."""
    user = _require_edit(actor, card.card_set)
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
    _validate(saved)
    return saved


def _validate(card: Card) -> None:
    """Check a saved card in the engine at once, so its report is there when it is shown.
    Its whole set is the deck it is met in during whole games."""
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
    _require_edit(actor, card.card_set)
    card.deleted_at = timezone.now()
    card.save(update_fields=["deleted_at", "updated_at"])


def card_restore(*, card: Card, actor: Actor) -> Card:
    """Bring a deleted card back, unless another card has taken its name meanwhile."""
    _require_edit(actor, card.card_set)
    with transaction.atomic():
        _check_name_free(card.card_set, card.typed, exclude=card)
        card.deleted_at = None
        card.save(update_fields=["deleted_at", "updated_at"])
    return card


def card_art_set(*, card: Card, actor: Actor, upload: UploadedFile[bytes]) -> Card:
    """Keep an uploaded picture as the card's art (the form has checked it with Pillow)."""
    _require_edit(actor, card.card_set)
    if card.art:
        card.art.delete(save=False)
    card.art.save(f"{card.card_set.code}-{card.slug}{_suffix(upload)}", upload, save=False)
    card.save(update_fields=["art", "updated_at"])
    return card


def _suffix(upload: UploadedFile[bytes]) -> str:
    name = (upload.name or "").lower()
    for suffix in (".png", ".jpg", ".jpeg", ".webp"):
        if name.endswith(suffix):
            return suffix
    return ".img"
