"""Loading set files into the catalog: checked whole first, then written in one transaction,
idempotently (an unchanged card is not written again)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from catalog.models import Card, CardSet
from catalog.services.cards import card_slug, card_write
from validator.engine import (
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
        provenance = _card_provenance(document, card.name)
        if row is None:
            report.created.append(card.name)
            if write:
                assert card_set is not None
                row = card_write(card_set=card_set, typed=card, actor=changed_by, source=source)
                _provenance_set(row, provenance)
        elif row.document_hash != document_hash(dump_card(card)) or row.text != render_text(card):
            report.updated.append(card.name)
            if write:
                row = card_write(
                    row=row, card_set=row.card_set, typed=card, actor=changed_by, source=source
                )
                _provenance_set(row, provenance)
        elif row.provenance != provenance:
            # Where a fact comes from changed, not the card: no new revision.
            report.provenance_updated.append(card.name)
            if write:
                _provenance_set(row, provenance)
        else:
            report.unchanged.append(card.name)
    return report


def _provenance_set(row: Card, provenance: dict[str, Any]) -> None:
    if row.provenance != provenance:
        Card.everything.filter(pk=row.pk).update(provenance=provenance)
        row.provenance = provenance


def default_fixture_paths(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.yaml") if p.is_file())
