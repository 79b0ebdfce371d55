"""The validator's reads: stored reports by card document.

Only a report made by the current code (`check_version`) is a card's verdict. A report made by
other code is *stale*: the card is being checked again, and its old verdict is history."""

from collections.abc import Iterable

from django.db.models import QuerySet

from validator.checks import check_version
from validator.models import CardCheck


def checks_for(*, document_hashes: Iterable[str]) -> dict[str, CardCheck]:
    """The current report of each document (checked by this code), by hash."""
    return {
        row.document_hash: row
        for row in CardCheck.objects.filter(
            check_version=check_version(), document_hash__in=list(document_hashes)
        )
    }


def stale_checks_for(*, document_hashes: Iterable[str]) -> dict[str, CardCheck]:
    """The latest report made by other code of each document that has no current report, by
    hash: the documents whose verdict is being derived again (one query)."""
    version = check_version()
    current: set[str] = set()
    stale: dict[str, CardCheck] = {}
    rows = CardCheck.objects.filter(document_hash__in=list(document_hashes))
    for row in rows.order_by("checked_at", "pk"):
        if row.check_version == version:
            current.add(row.document_hash)
        else:
            stale[row.document_hash] = row  # the latest one wins
    return {digest: row for digest, row in stale.items() if digest not in current}


def checked_document_hashes() -> QuerySet[CardCheck, str]:
    """The hashes of every document with a current report (for a subquery)."""
    return CardCheck.objects.filter(check_version=check_version()).values_list(
        "document_hash", flat=True
    )
