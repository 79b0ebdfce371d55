"""Loading set files into the catalog: checked whole first, then written in one transaction,
idempotently (an unchanged card is not written again).

A load never silently overwrites a player's contribution a curator accepted. A card is *held*
while its newest accepted contribution (a revision with a proposer) is newer than the last
revision a load wrote: where the file's document differs from it, the load reports a conflict
for each differing top-level key and leaves the card, document and provenance, as it is; with
`prefer_fixture` it writes the file's version anyway, as a normal new revision, and says so.
Once a load has written the card, later file changes flow again: the contribution was already
replaced on purpose. A conflict is information, not an error: the rest of the load proceeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max

from catalog.changes import catalog_changed
from catalog.models import Card, CardRevision, CardSet
from catalog.provenance import card_contributions, proposal_number, provenance_merged
from catalog.services.cards import card_slug, card_write, cards_create
from validator.engine import (
    CardBase,
    CardDocumentError,
    DocumentError,
    SetDocument,
    document_hash,
    dump_card,
    format_path,
    load_set_file,
    provenance_dump,
    render_text,
)


class CatalogLoadError(Exception):
    """One or more set files do not parse; nothing was written."""

    def __init__(self, errors: list[CardDocumentError]) -> None:
        self.errors = errors
        super().__init__("; ".join(str(e) for e in errors))

    def lines(self) -> list[str]:
        return [line for error in self.errors for line in error.lines()]


# What a load writes as a revision's source: "load_catalog <path>".
LOAD_SOURCE: Final = "load_catalog"


@dataclass(frozen=True)
class LoadConflict:
    """One top-level key of a card where the set file differs from a card that holds an
    accepted contribution. `database` and `fixture` are the two values (None: the document
    does not have the key); `origin` says whose the database's value is ("accepted proposal
    #7 by alice", or "revision 3" when the value came from elsewhere); `taken` is the side the
    load keeps (the file's only with prefer_fixture)."""

    card: str
    field: str
    database: Any
    fixture: Any
    origin: str
    taken: Literal["database", "fixture"]


@dataclass
class SetLoadReport:
    code: str
    name: str
    source: str
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    # Cards whose document is unchanged but whose provenance (sources, confidence) changed.
    provenance_updated: list[str] = field(default_factory=list)
    # Cards left as the database has them: an accepted contribution differs from the file.
    kept: list[str] = field(default_factory=list)
    # Cards whose accepted contribution the file's version replaced (prefer_fixture); each is
    # in `updated` too.
    overridden: list[str] = field(default_factory=list)
    conflicts: list[LoadConflict] = field(default_factory=list)
    set_changed: bool = False


@dataclass
class CatalogLoadReport:
    sets: list[SetLoadReport]
    written: bool

    @property
    def changed(self) -> bool:
        return any(
            s.created or s.updated or s.provenance_updated or s.set_changed for s in self.sets
        )

    @property
    def conflicts(self) -> list[LoadConflict]:
        return [conflict for s in self.sets for conflict in s.conflicts]


def _set_fields(document: SetDocument) -> dict[str, Any]:
    info = document.set
    return {
        "name": info.name,
        "cards_in_box": info.cards_in_box,
        "official": info.official,
        "year": info.year,
        "description": info.description or "",
        "sources": [ref.model_dump(mode="json", exclude_none=True) for ref in document.sources],
    }


def _card_provenance(document: SetDocument, name: str) -> dict[str, Any]:
    provenance = document.provenance.get(name)
    return provenance_dump(provenance) if provenance is not None else {}


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
    prefer_fixture: bool = False,
) -> CatalogLoadReport:
    """Upsert the sets and cards of the given set files, by (set code, card name).

    All files are parsed before anything is written; any error raises CatalogLoadError and the
    database is left as it was. Running it again on the same files changes nothing. Cards that
    exist in the database but not in a file are kept (custom cards are never deleted by a load).
    A card holding an accepted contribution that the file differs from is left alone and its
    differences reported as conflicts, unless prefer_fixture (then the file's version is
    written, and the conflicts say so). With check_only, the report says what a load would do
    and nothing is written.
    """
    parsed = catalog_parse(paths=paths)
    with transaction.atomic():
        reports = [
            _load_set(
                path,
                document,
                write=not check_only,
                changed_by=changed_by,
                prefer_fixture=prefer_fixture,
            )
            for path, document in parsed
        ]
        if not check_only:
            catalog_changed()
    return CatalogLoadReport(sets=reports, written=not check_only)


def _held(contributed: dict[int, list[int]]) -> set[int]:
    """The cards (of those with accepted contributions: card id → their revision numbers)
    whose newest contribution is newer than the last revision a load wrote."""
    if not contributed:
        return set()
    loaded = dict(
        CardRevision.objects.filter(card_id__in=contributed, source__startswith=LOAD_SOURCE)
        .values("card_id")
        .annotate(newest=Max("number"))
        .values_list("card_id", "newest")
    )
    return {
        card_id
        for card_id, numbers in contributed.items()
        if max(numbers) > (loaded.get(card_id) or 0)
    }


def _origin(revision: CardRevision) -> str:
    if not revision.proposed_by_id and not revision.source.startswith("proposal #"):
        return f"revision {revision.number}"
    proposal = proposal_number(revision.source)
    what = f"proposal #{proposal}" if proposal is not None else f"revision {revision.number}"
    who = revision.proposed_by.username if revision.proposed_by else "a deleted account"
    return f"accepted {what} by {who}"


def _conflicts(
    row: Card, wanted: dict[str, Any], *, taken: Literal["database", "fixture"]
) -> list[LoadConflict]:
    """Each top-level key where the card's document and the file's differ, the database's
    value credited to the revision that set it (the oldest of the newest run holding it)."""
    current: dict[str, Any] = row.document if isinstance(row.document, dict) else {}
    revisions = list(
        CardRevision.objects.filter(card=row).select_related("proposed_by").order_by("-number")
    )
    keys = list(current) + [k for k in wanted if k not in current]
    conflicts = []
    for key in keys:
        if current.get(key) == wanted.get(key):
            continue
        setter = None
        for revision in revisions:
            held = revision.document if isinstance(revision.document, dict) else {}
            if held.get(key) != current.get(key):
                break
            setter = revision
        conflicts.append(
            LoadConflict(
                card=row.name,
                field=key,
                database=current.get(key),
                fixture=wanted.get(key),
                origin=_origin(setter) if setter is not None else f"revision {row.revision}",
                taken=taken,
            )
        )
    return conflicts


def _load_set(
    path: Path,
    document: SetDocument,
    *,
    write: bool,
    changed_by: User | None,
    prefer_fixture: bool,
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
    contributions = card_contributions(card_ids=[row.pk for row in existing.values()])
    held = _held({pk: [c.revision for c in found] for pk, found in contributions.items()})
    source = f"{LOAD_SOURCE} {path}"
    new_cards: list[tuple[CardBase, dict[str, Any]]] = []
    for card in document.cards:
        row = existing.get(card.name)
        provenance = _card_provenance(document, card.name)
        if row is None:
            report.created.append(card.name)
            new_cards.append((card, provenance))
            continue
        card_document = dump_card(card)
        differs = row.document_hash != document_hash(card_document)
        if differs and row.pk in held:
            taken: Literal["database", "fixture"] = "fixture" if prefer_fixture else "database"
            report.conflicts.extend(_conflicts(row, card_document, taken=taken))
            if not prefer_fixture:
                report.kept.append(card.name)
                continue
            report.overridden.append(card.name)
        card_contributed = contributions.get(row.pk, [])
        if differs or row.text != render_text(card):
            report.updated.append(card.name)
            if write:
                row = card_write(
                    row=row,
                    card_set=row.card_set,
                    typed=card,
                    actor=changed_by,
                    source=source,
                    checked_after=True,  # load_catalog draws and checks them after the load
                )
                _provenance_set(row, provenance)
        elif provenance_merged(row.provenance or {}, card_contributed) != provenance_merged(
            provenance, card_contributed
        ):
            # Where a fact comes from changed, not the card: no new revision. The contributions
            # the card's revisions record count on both sides, so a file exported with them
            # (export_set --fixture) is not a change, nor one that predates them.
            report.provenance_updated.append(card.name)
            if write:
                _provenance_set(row, provenance)
        else:
            report.unchanged.append(card.name)
    if write and new_cards:
        assert card_set is not None
        cards_create(
            card_set=card_set,
            cards=new_cards,
            actor=changed_by,
            source=source,
            checked_after=True,
        )
    return report


def _provenance_set(row: Card, provenance: dict[str, Any]) -> None:
    if row.provenance != provenance:
        Card.everything.filter(pk=row.pk).update(provenance=provenance)
        row.provenance = provenance


def default_fixture_paths(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.yaml") if p.is_file())
