"""Reads of the bulk data files."""

from __future__ import annotations

from django.db.models import Q

from bulk.models import BulkFile, BulkKind


def bulk_files() -> list[BulkFile]:
    """The current file of each kind made so far, in the order of `BulkKind`."""
    order = {kind: index for index, kind in enumerate(BulkKind.values)}
    return sorted(BulkFile.objects.all(), key=lambda row: order.get(row.kind, len(order)))


def bulk_file_named(*, name: str) -> BulkFile | None:
    """The file row that serves this stored name: a current file, or the one it replaced."""
    return BulkFile.objects.filter(Q(name=name) | Q(previous_name=name)).first()
