"""The bulk data files made again in the background after the catalog changes.

A burst of changes (a set of 300 cards imported through the API) queues one run, not 300: a
flag in the default cache says a run is queued, and the run lowers it as it starts, so a change
made while the files are being written queues the next run. Runs start at most once every
BULK_DATA_INTERVAL seconds: a run asked for sooner is queued to start then, so a site written
to all day spends one run a minute on its files, not one per write (on a task backend that
cannot defer a task, the immediate one, it runs at once)."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.tasks import task, task_backends
from django.utils import timezone

from bulk.services import bulk_data_refresh
from catalog.changes import CatalogChange

logger = logging.getLogger(__name__)

QUEUED_FLAG = "bulk-data:queued"
LAST_START = "bulk-data:last-start"
# A queued run lost with its process (the thread backend on a restart) stops holding the flag
# after this long past its start, so later changes queue a run again.
QUEUED_FLAG_SECONDS = 3600


def bulk_data_queue(change: CatalogChange) -> None:
    """The receiver of catalog changes (any change: the files hold the whole catalog): queue
    a run unless one is queued already, not to start before BULK_DATA_INTERVAL seconds after
    the last run started."""
    if not settings.BULK_DATA_AHEAD:
        return
    wait = max(0.0, float(cache.get(LAST_START, 0.0)) + settings.BULK_DATA_INTERVAL - time.time())
    if not cache.add(QUEUED_FLAG, True, timeout=QUEUED_FLAG_SECONDS + int(wait)):
        return
    run = refresh_bulk_data
    if wait > 0 and task_backends[run.backend].supports_defer:
        run = run.using(run_after=timezone.now() + timedelta(seconds=wait))
    try:
        run.enqueue()
    except Exception:  # the files are made again by the next change, or by `bulk_data`
        cache.delete(QUEUED_FLAG)
        logger.exception("queueing the bulk data files failed")


@task()
def refresh_bulk_data() -> int:
    """The background task: make again the bulk data files whose sources changed."""
    cache.set(LAST_START, time.time(), timeout=None)
    cache.delete(QUEUED_FLAG)
    return sum(1 for refreshed in bulk_data_refresh() if refreshed.written)
