"""Writes to the catalog. Every write goes through a function here.

Loading set files (catalog_load) and the authoring writes (sets and cards of users). Every
authoring function checks that the actor may make the change (catalog.permissions) and raises
PermissionDenied otherwise, so a page, an API endpoint or a script cannot forget to. Every card
write goes through card_write, which records each save as a revision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from catalog.models import Card, CardFacet, CardRevision, CardSet, CardTag, Pack, Visibility
from catalog.permissions import can_edit_set
from catalog.search.facets import card_facets
from catalog.selectors import PackBuildError, pack_candidates, pack_sets
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
    read_yaml,
    render_text,
)


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
    from catalog.selectors import catalog_cards
    from validator.services import cards_validate  # validator's services import the catalog

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
        _check_name_free(card.card_set, parse_card(card.document), exclude=card)
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


# --------------------------------------------------------------------------------------------
# Packs: what leaves the site
# --------------------------------------------------------------------------------------------

MAX_PACK_CARDS = 5000


@dataclass
class BuiltPack:
    """A pack document ready to write or store, with the choices that made it."""

    document: dict[str, Any]
    selection: dict[str, Any]
    report: dict[str, Any]
    card_count: int
    door_copies: int
    treasure_copies: int

    @property
    def name(self) -> str:
        return str(self.document["name"])


def pack_build(
    *,
    actor: Actor | None,
    set_codes: Sequence[str],
    query: str = "",
    copies: Mapping[int, int] | None = None,
    include: Sequence[int] = (),
    exclude: Sequence[int] = (),
    include_failing: bool = False,
    name: str = "",
) -> BuiltPack:
    """Choose a pack's cards and build its document (see validator/engine/pack.py).

    The cards of `set_codes` (every set the actor may see; None: the site itself, every set),
    narrowed by a search `query`, plus the `include`d card ids, less the `exclude`d ones, with
    `copies` changed per card id (0 leaves a card out). Cards that fail validation are left out
    unless `include_failing`; cards never checked are checked first. Any problem (an unknown
    set, a query with warnings, an empty selection) raises PackBuildError; nothing is written
    except validation reports."""
    from catalog.blend import PackCard, blend_report
    from validator.checks import check_version
    from validator.engine import build_pack
    from validator.models import CardCheck
    from validator.services import cards_validate

    chosen = {
        c.pk: c
        for c in pack_candidates(actor=actor, set_codes=set_codes, query=query, include=include)
    }
    sets = pack_sets(actor=actor, set_codes=set_codes)
    for card_id in exclude:
        chosen.pop(card_id, None)
    copies = dict(copies or {})
    for card_id, count in copies.items():
        if not 0 <= count <= 99:
            raise PackBuildError([(f"copies.{card_id}", "copies run from 0 (leave out) to 99")])
        if count == 0:
            chosen.pop(card_id, None)
    if len(chosen) > MAX_PACK_CARDS:
        raise PackBuildError([("sets", f"a pack holds at most {MAX_PACK_CARDS} cards")])

    rows = sorted(chosen.values(), key=lambda c: (c.card_set.code, c.name))
    unchecked = {(c.card_set.code, c.document_hash): c for c in rows}
    version = check_version()
    checks = {
        row.document_hash: row
        for row in CardCheck.objects.filter(
            check_version=version, document_hash__in=[c.document_hash for c in rows]
        )
    }
    todo = [(code, c.document) for (code, digest), c in unchecked.items() if digest not in checks]
    if todo:
        cards_validate(cards=todo, deck=[(c.card_set.code, c.document) for c in rows])
        checks = {
            row.document_hash: row
            for row in CardCheck.objects.filter(
                check_version=version, document_hash__in=[c.document_hash for c in rows]
            )
        }
    failing: dict[tuple[str, str], list[str]] = {}
    left_out: list[tuple[str, str, str]] = []
    kept: list[Card] = []
    for card in rows:
        check = checks.get(card.document_hash)
        if check is not None and check.status == "fail":
            if include_failing:
                failing[(card.card_set.code, card.name)] = list(check.messages)
            else:
                left_out.append((card.card_set.code, card.name, "fails validation"))
                continue
        kept.append(card)

    entries = []
    for card in kept:
        typed = parse_card(card.document)
        count = copies.get(card.pk, typed.copies if typed.copies is not None else 1)
        entries.append(PackCard(card.card_set.code, typed, count))
    in_decks = [e for e in entries if e.card.deck is not None]
    if not in_decks:
        raise PackBuildError([("sets", "the selection holds no card of either deck")])

    report = blend_report(entries, failing=failing, left_out=left_out)
    selection = {
        "sets": [s.code for s in sets],
        "query": query,
        "copies": {str(k): v for k, v in sorted(copies.items())},
        "include": sorted(include),
        "exclude": sorted(exclude),
        "include_failing": include_failing,
    }
    by_set: dict[str, list[CardBase]] = {s.code: [] for s in sets}
    for card, entry in zip(kept, entries, strict=True):
        by_set.setdefault(card.card_set.code, []).append(entry.card)
    set_rows = {s.code: s for s in sets} | {c.card_set.code: c.card_set for c in kept}
    decks: dict[str, list[tuple[str, str, int]]] = {"door": [], "treasure": []}
    for entry in in_decks:
        decks[str(entry.card.deck)].append((entry.set_code, entry.card.name, entry.copies))
    pack_name = name.strip() or " + ".join(set_rows[code].name for code in by_set)
    document = build_pack(
        name=pack_name[:120],
        sets=[
            (_set_info(set_rows[code]), cards_of_set)
            for code, cards_of_set in by_set.items()
            if cards_of_set
        ],
        decks=decks,
        metadata={"report": report, "selection": selection},
    )
    return BuiltPack(
        document=document,
        selection=selection,
        report=report,
        card_count=len(entries),
        door_copies=report["balance"]["door"],
        treasure_copies=report["balance"]["treasure"],
    )


def _set_info(card_set: CardSet) -> dict[str, Any]:
    return {
        "code": card_set.code,
        "name": card_set.name,
        "official": card_set.official,
        "year": card_set.year,
        "cards_in_box": card_set.cards_in_box,
        "description": card_set.description or None,
    }


def pack_create(*, actor: Actor | None, built: BuiltPack) -> Pack:
    """Keep a built pack, so it has a page, downloads and simulations."""
    owner = actor if isinstance(actor, User) else None
    return Pack.objects.create(
        owner=owner,
        name=built.name,
        selection=built.selection,
        document=built.document,
        sha256=built.document["sha256"],
        card_count=built.card_count,
        door_copies=built.door_copies,
        treasure_copies=built.treasure_copies,
    )


def pack_import(*, actor: Actor | None, text: str, source: str) -> list[CardSet]:
    """Load every set of a pack file into the database, in one transaction: each set is
    created (its code must be free) with every card's document as its first revision.

    With an actor, the sets become that user's private custom sets; with None (a command
    run by the site's operator), official sets stay official."""
    from validator.engine import parse_pack

    parsed = read_yaml(text, source)  # JSON is YAML too; errors carry their line
    pack = parse_pack(parsed.data, source, parsed.lines)  # PackError names each path
    owner = actor if isinstance(actor, User) else None
    if actor is not None and owner is None:
        raise PermissionDenied("log in to import a pack")
    taken = set(
        CardSet.everything.filter(code__in=[s.code for s in pack.sets]).values_list(
            "code", flat=True
        )
    )
    if taken:
        raise PackBuildError(
            [("sets", f"the set code {code!r} is taken") for code in sorted(taken)]
        )
    created = []
    with transaction.atomic():
        for pack_set in pack.sets:
            card_set = CardSet.objects.create(
                code=pack_set.code,
                name=pack_set.name,
                official=pack_set.official if owner is None else False,
                owner=owner,
                visibility=Visibility.PUBLIC if owner is None else Visibility.PRIVATE,
                year=pack_set.year,
                cards_in_box=pack_set.cards_in_box,
                description=pack_set.description or "",
            )
            for card in pack_set.cards:
                card_write(
                    card_set=card_set, typed=card, actor=owner, source=f"import_pack {source}"
                )
            created.append(card_set)
    return created
