"""The bulk data files made again in the background after the catalog changes.

A burst of changes (a set of 300 cards imported through the API) queues one run, not 300: a
flag in the default cache says a run is queued, and the run lowers it as it starts, so a change
made while the files are being written queues the next run."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.tasks import task

from bulk.services import bulk_data_refresh

logger = logging.getLogger(__name__)

QUEUED_FLAG = "bulk-data:queued"
# A queued run lost with its process (the thread backend on a restart) stops holding the flag
# after this long, so later changes queue a run again.
QUEUED_FLAG_SECONDS = 3600


def bulk_data_queue() -> None:
    """The catalog's `catalog_changed` hook: queue a run unless one is queued already."""
    if not settings.BULK_DATA_AHEAD:
        return
    if not cache.add(QUEUED_FLAG, True, timeout=QUEUED_FLAG_SECONDS):
        return
    try:
        refresh_bulk_data.enqueue()
    except Exception:  # the files are made again by the next change, or by `bulk_data`
        cache.delete(QUEUED_FLAG)
        logger.exception("queueing the bulk data files failed")


@task()
def refresh_bulk_data() -> int:
    """The background task: make again the bulk data files whose sources changed."""
    cache.delete(QUEUED_FLAG)
    return sum(1 for refreshed in bulk_data_refresh() if refreshed.written)
