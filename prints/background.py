"""The life of a background job that leaves a file (a proxy PDF, a Tabletop Simulator zip):
waiting and running jobs count against their user's limit, a job lost for longer than
STALE_AFTER is marked failed, and a finished one is deleted with its file after its keep time.
Each kind of job keeps its own rows and settings and calls these with them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from prints.models import JobStatus

ACTIVE = (JobStatus.QUEUED, JobStatus.RUNNING)
FINISHED = (JobStatus.DONE, JobStatus.FAILED)
# A job waiting or running for longer than this was lost (its worker stopped).
STALE_AFTER = timedelta(hours=1)


def describe_error(exc: BaseException) -> str:
    """An exception as a job's page shows it: its type, and its words when it has some."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def jobs_expire_stalled(
    jobs: QuerySet[Any], *, error: str, running_since: str = "created_at"
) -> int:
    """Mark failed the jobs queued since before STALE_AFTER, or running since before it (by
    `running_since`, the field their start is in), with `error`. Returns how many."""
    now = timezone.now()
    cutoff = now - STALE_AFTER
    stalled = Q(status=JobStatus.QUEUED, created_at__lt=cutoff) | Q(
        status=JobStatus.RUNNING, **{f"{running_since}__lt": cutoff}
    )
    return jobs.filter(stalled).update(status=JobStatus.FAILED, error=error, finished_at=now)


def job_expires_at(finished_at: datetime | None, *, keep_hours: int) -> datetime | None:
    """When a job finished at `finished_at` is deleted with its file (None while it runs)."""
    return None if finished_at is None else finished_at + timedelta(hours=keep_hours)


def jobs_delete_expired(
    jobs: QuerySet[Any], *, file_field: str, keep_hours: int, now: datetime | None = None
) -> int:
    """Delete the jobs finished more than `keep_hours` ago, each file (`file_field`) from the
    media storage first, then the row. Returns how many were deleted."""
    cutoff = (now or timezone.now()) - timedelta(hours=keep_hours)
    deleted = 0
    for job in jobs.filter(status__in=FINISHED, finished_at__lt=cutoff).only("pk", file_field):
        stored = getattr(job, file_field)
        if stored:
            stored.delete(save=False)
        jobs.filter(pk=job.pk).delete()
        deleted += 1
    return deleted
