"""The validator's writes: check cards and keep the reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from validator.checks import (
    CardReport,
    add_real_play,
    check_card,
    check_document,
    check_version,
)
from validator.engine import CardBase, CardDocumentError, document_hash, parse_card
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


def _parsed(document: dict[str, Any], cache: dict[str, CardBase | None]) -> CardBase | None:
    digest = document_hash(document)
    if digest not in cache:
        try:
            cache[digest] = parse_card(document)
        except CardDocumentError:
            cache[digest] = None  # reported as that card's own failure
    return cache[digest]


def cards_validate(
    *,
    cards: Sequence[tuple[str, dict[str, Any]]],
    deck: Sequence[tuple[str, dict[str, Any]]] | None = None,
    force: bool = False,
) -> list[CardReport]:
    """Check (set code, card document) pairs, reusing the stored report of every document
    already checked by this code of the engine and the checks (`check_version`: the digest of
    their source, so a report of other code is never reused); store the new ones.

    New cards are also met in seeded whole games played with `deck` (default: the cards
    themselves), which should hold their whole sets."""
    version = check_version()
    hashes = [document_hash(document) for _, document in cards]
    stored: dict[str, CardCheck] = {}
    if not force:
        stored = {
            row.document_hash: row
            for row in CardCheck.objects.filter(check_version=version, document_hash__in=hashes)
        }
    reports: list[CardReport] = []
    fresh: list[tuple[CardReport, str, CardBase, str]] = []
    fresh_invalid: list[tuple[CardReport, str]] = []
    parsed: dict[str, CardBase | None] = {}
    for (set_code, document), digest in zip(cards, hashes, strict=True):
        row = stored.get(digest)
        if row is not None:
            report = _report_of(row)
            report.set_code, report.name = set_code, str(document.get("name", report.name))
            reports.append(report)
            continue
        card = _parsed(document, parsed)
        report = (
            check_card(card, set_code) if card is not None else check_document(document, set_code)
        )
        reports.append(report)
        if card is not None:
            fresh.append((report, set_code, card, digest))
        else:
            fresh_invalid.append((report, digest))
    if fresh:
        deck_cards = [
            (code, card)
            for code, document in (deck if deck is not None else cards)
            if (card := _parsed(document, parsed)) is not None
        ]
        add_real_play(
            [r for r, _, _, _ in fresh], [(code, card) for _, code, card, _ in fresh], deck_cards
        )
    new_rows = [
        _row(report, digest, version)
        for report, digest in [(r, d) for r, _, _, d in fresh] + fresh_invalid
    ]
    if force and new_rows:
        CardCheck.objects.filter(
            check_version=version, document_hash__in=[r.document_hash for r in new_rows]
        ).delete()
    unique = {row.document_hash: row for row in new_rows}
    CardCheck.objects.bulk_create(unique.values(), ignore_conflicts=True)
    return reports


def _row(report: CardReport, digest: str, version: str) -> CardCheck:
    return CardCheck(
        document_hash=digest,
        check_version=version,
        set_code=report.set_code,
        card_name=report.name,
        kind=report.kind,
        encoding=report.encoding,
        status=report.status,
        verified=report.verified,
        messages=report.messages,
        scenarios_run=report.scenarios_run,
        failing_scenario=report.failing_scenario or "",
    )
