"""Import a set file (the fixtures format, as `catalog.exports.set_yaml` exports it).

An import is checked whole before anything is written: the YAML, every card document, the web
addresses the cards would take and the set's size. Then it is applied in one transaction, so a
failure at any point leaves the database as it was. Every card write goes through the authoring
services (and so through `catalog.services.card_write`, which records a revision).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import transaction

from accounts.queues import bulk_writes
from catalog.models import Card, CardSet, Visibility
from catalog.permissions import can_edit_set
from catalog.services import (
    MAX_CARDS_PER_SET,
    SetError,
    card_create,
    card_slug,
    card_update,
    owned_code,
    set_create,
)
from validator.engine import (
    CardBase,
    CardDocumentError,
    DocumentError,
    SetDocument,
    document_hash,
    dump_card,
    format_path,
    line_for,
    parse_set,
    read_yaml,
)

Actor = User | AnonymousUser
Lines = dict[tuple[str | int, ...], int]

__all__ = ["SetImportReport", "set_import"]


@dataclass
class SetImportReport:
    """What an import did: the set it wrote to and the cards, by name, in file order."""

    card_set: CardSet
    source: str
    set_created: bool
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line: "munchkin-core: 3 created, 1 updated, 160 unchanged"."""
        return (
            f"{self.card_set.code}: {len(self.created)} created, {len(self.updated)} updated, "
            f"{len(self.unchanged)} unchanged"
        )


def _parse(text: str, source: str) -> tuple[SetDocument, Lines]:
    """The whole file parsed, or CardDocumentError with every error's line and path."""
    parsed = read_yaml(text, source)
    document = parse_set(parsed.data, source, parsed.lines)
    errors: list[DocumentError] = []
    seen: dict[str, str] = {}
    for index, card in enumerate(document.cards):
        slug = card_slug(card.name)
        if slug in seen:
            path: list[str | int] = ["cards", index, "name"]
            errors.append(
                DocumentError(
                    format_path(path),
                    f"{card.name!r} would have the same web address ({slug}) as "
                    f"{seen[slug]!r}; rename one",
                    line_for(path, parsed.lines),
                )
            )
        else:
            seen[slug] = card.name
    if errors:
        raise CardDocumentError(errors, source)
    return document, parsed.lines


def _card_error(index: int, lines: Lines, message: str) -> DocumentError:
    path: list[str | int] = ["cards", index, "name"]
    return DocumentError(format_path(path), message, line_for(path, lines))


def _match(existing: list[Card], name: str) -> Card | None:
    """The live card of the set a file's card replaces: same name, or same name but for case
    (the editor refuses names that differ only in case, so there is at most one)."""
    exact = next((row for row in existing if row.name == name), None)
    if exact is not None:
        return exact
    return next((row for row in existing if row.name.casefold() == name.casefold()), None)


def _plan(
    document: SetDocument, existing: list[Card], lines: Lines, source: str
) -> list[tuple[CardBase, Card | None]]:
    """Each card of the file with the row it replaces (None: a new card). Raises
    CardDocumentError, before anything is written, for a new card whose web address another
    card of the set has, or a set that would grow past its limit."""
    plan: list[tuple[CardBase, Card | None]] = [
        (card, _match(existing, card.name)) for card in document.cards
    ]
    errors: list[DocumentError] = []
    # A matched card keeps its address (names match but for case, and slugs are lower case),
    # and the file's own cards were checked against each other: only a new card can clash.
    slugs = {row.slug: row.name for row in existing}
    for index, (card, row) in enumerate(plan):
        slug = card_slug(card.name)
        if row is None and slug in slugs:
            errors.append(
                _card_error(
                    index,
                    lines,
                    f"{card.name!r} would have the same web address ({slug}) as the set's "
                    f"card {slugs[slug]!r}; rename one",
                )
            )
    new_count = sum(1 for _, row in plan if row is None)
    if len(existing) + new_count > MAX_CARDS_PER_SET:
        errors.append(
            DocumentError(
                "cards",
                f"the set would have {len(existing) + new_count} cards; a set holds at most "
                f"{MAX_CARDS_PER_SET}",
                line_for(["cards"], lines),
            )
        )
    if errors:
        raise CardDocumentError(errors, source)
    return plan


def set_import(
    *,
    owner: Actor,
    text: str,
    source: str,
    into: CardSet | None = None,
    visibility: str = Visibility.PRIVATE,
) -> SetImportReport:
    """Import a set file as `owner`.

    The whole text is parsed first (YAML, every card, duplicate names and web addresses);
    any error raises CardDocumentError naming the source and each error's line and path.

    Then, in one transaction: with `into` None, a new custom set is created from the file's
    `set:` facts (code, name, year, box size, description), owned by `owner`, with the given
    visibility; the file's `official` is ignored (an import is always a custom set), its code
    is put in the owner's scope (`owned_code`), and a code already in use raises
    SetError("code", ...). With `into`, the file's cards are upserted
    into that set, which `owner` must be allowed to edit (PermissionDenied otherwise): cards are
    matched by name; new ones are created, changed documents are saved as a new revision
    (source "import <source>"), unchanged ones are skipped, and cards of the set that the file
    does not have are kept. The set's own facts are left as they are.

    Nothing is written when anything fails. Returns what was created, updated and unchanged.
    """
    if into is not None:
        if not can_edit_set(owner, into):
            raise PermissionDenied(f"you may not change the set {into.code!r}")
        if into.deleted_at is not None:
            raise SetError("into", f"the set {into.code!r} is deleted; restore it first")
    elif not isinstance(owner, User) or not owner.is_active:
        raise PermissionDenied("log in to import a set")
    document, lines = _parse(text, source)

    # A whole set's cards: their validation and faces are bulk work (accounts/queues.py).
    with bulk_writes(), transaction.atomic():
        if into is None:
            assert isinstance(owner, User)  # checked above: a new set needs a user
            plan = _plan(document, [], lines, source)
            card_set = _new_set(owner, document, visibility)
        else:
            # Serialise imports into one set (a no-op on SQLite, which locks the database).
            card_set = CardSet.objects.select_for_update().get(pk=into.pk)
            existing = list(Card.objects.filter(card_set=card_set).order_by("pk"))
            plan = _plan(document, existing, lines, source)

        report = SetImportReport(card_set=card_set, source=source, set_created=into is None)
        for index, (card, row) in enumerate(plan):
            try:
                _import_card(report, owner, card, row)
            except CardDocumentError as exc:  # a name taken meanwhile; the import is undone
                raise CardDocumentError(
                    [_card_error(index, lines, error.message) for error in exc.errors], source
                ) from exc
    return report


def _new_set(owner: User, document: SetDocument, visibility: str) -> CardSet:
    """The custom set an import into no set creates, from the file's `set:` facts, its code
    in the owner's scope; SetError when that code is taken."""
    info = document.set
    code = owned_code(owner=owner, code=info.code)
    if CardSet.everything.filter(code=code).exists():
        raise SetError("code", f"the code {code!r} is taken; choose another")
    card_set = set_create(
        owner=owner,
        code=code,
        name=info.name,
        visibility=visibility,
        description=info.description or "",
        cards_in_box=info.cards_in_box,
    )
    if info.year is not None:
        card_set.year = info.year
        card_set.save(update_fields=["year", "updated_at"])
    return card_set


def _import_card(report: SetImportReport, owner: Actor, card: CardBase, row: Card | None) -> None:
    """Create the card, save it as a new revision, or leave it as it is; noted in `report`."""
    dumped = dump_card(card)
    revision_source = f"import {report.source}"
    if row is None:
        card_create(card_set=report.card_set, actor=owner, document=dumped, source=revision_source)
        report.created.append(card.name)
    elif row.document_hash != document_hash(dumped):
        card_update(
            card=row,
            actor=owner,
            document=dumped,
            base_revision=row.revision,
            source=revision_source,
        )
        report.updated.append(card.name)
    else:
        report.unchanged.append(card.name)
