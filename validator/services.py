"""The validator's writes: check cards and keep the reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from validator.checks import CardReport, check_document, check_version
from validator.engine.cards import document_hash
from validator.models import CardCheck


def _report_of(row: CardCheck) -> CardReport:
    return CardReport(
        set_code=row.set_code,
        name=row.card_name,
        kind=row.kind,
        encoding=row.encoding,
        status=row.status,
        verified=row.verified,
        messages=list(row.messages),
        scenarios_run=row.scenarios_run,
        failing_scenario=row.failing_scenario or None,
    )


def cards_validate(
    *, cards: Sequence[tuple[str, dict[str, Any]]], force: bool = False
) -> list[CardReport]:
    """Check (set code, card document) pairs, reusing the stored report of every document
    already checked by this version of the engine and checks; store the new ones."""
    version = check_version()
    hashes = [document_hash(document) for _, document in cards]
    stored: dict[str, CardCheck] = {}
    if not force:
        stored = {
            row.document_hash: row
            for row in CardCheck.objects.filter(check_version=version, document_hash__in=hashes)
        }
    reports: list[CardReport] = []
    new_rows: list[CardCheck] = []
    for (set_code, document), digest in zip(cards, hashes, strict=True):
        row = stored.get(digest)
        if row is not None:
            report = _report_of(row)
            report.set_code, report.name = set_code, str(document.get("name", report.name))
            reports.append(report)
            continue
        report = check_document(document, set_code)
        reports.append(report)
        new_rows.append(
            CardCheck(
                document_hash=digest,
                check_version=version,
                set_code=set_code,
                card_name=report.name,
                kind=report.kind,
                encoding=report.encoding,
                status=report.status,
                verified=report.verified,
                messages=report.messages,
                scenarios_run=report.scenarios_run,
                failing_scenario=report.failing_scenario or "",
            )
        )
    if force and new_rows:
        CardCheck.objects.filter(
            check_version=version, document_hash__in=[r.document_hash for r in new_rows]
        ).delete()
    unique = {row.document_hash: row for row in new_rows}
    CardCheck.objects.bulk_create(unique.values(), ignore_conflicts=True)
    return reports
