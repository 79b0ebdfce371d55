"""Reads of the bulk data files."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q

from bulk.models import BulkFile, BulkKind
from catalog.selectors import listed_sets


def bulk_files() -> list[BulkFile]:
    """The current file of each kind made so far, in the order of `BulkKind`."""
    order = {kind: index for index, kind in enumerate(BulkKind.values)}
    return sorted(BulkFile.objects.all(), key=lambda row: order.get(row.kind, len(order)))


def bulk_file_named(*, name: str) -> BulkFile | None:
    """The file row that serves this stored name: a current file, or the one it replaced."""
    return BulkFile.objects.filter(Q(name=name) | Q(previous_name=name)).first()


def bulk_file_still_public(*, row: BulkFile, name: str) -> bool:
    """Whether every set the stored file `name` (the row's current or previous file) holds is
    still listed for everyone: official, or public and not deleted."""
    held = set(row.set_ids if name == row.name else row.previous_set_ids)
    if not held:
        return True
    listed = listed_sets(viewer=AnonymousUser()).filter(pk__in=held).count()
    return listed == len(held)
