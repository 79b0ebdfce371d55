"""The validator's reads: stored reports by card document."""

from collections.abc import Iterable

from validator.checks import check_version
from validator.models import CardCheck


def checks_for(*, document_hashes: Iterable[str]) -> dict[str, CardCheck]:
    """The current report of each document checked by this engine version, by hash."""
    return {
        row.document_hash: row
        for row in CardCheck.objects.filter(
            check_version=check_version(), document_hash__in=list(document_hashes)
        )
    }
