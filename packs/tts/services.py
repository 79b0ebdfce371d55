"""The life of a Tabletop Simulator export once started: lost ones expired, finished ones
deleted after TTS_EXPORT_KEEP_HOURS with their files, and a private export's link revoked or
renewed by its owner.

A finished export and its zip are kept TTS_EXPORT_KEEP_HOURS, then deleted: whoever finishes
an export deletes the expired ones (packs/tts/jobs.py calls `tts_exports_delete_expired`), and
`manage.py prune_tts_exports` does the same from a schedule, for a site where no export runs
for a while. An export waiting or running longer than STALE_AFTER (an hour; the largest pack
takes a minute) was lost: it stops counting against its user's limit and expires like a
finished one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from packs.models import TtsExport
from packs.tts.hosting import export_files_delete, new_token
from prints.background import FINISHED, job_expires_at, jobs_delete_expired, jobs_expire_stalled

STALE_ERROR = (
    "The export was lost before it finished (the server restarted, or no worker ran it within "
    "an hour). Start it again."
)


def tts_exports_expire_stalled() -> int:
    """Mark failed the exports queued or running for longer than STALE_AFTER, so that their
    page stops waiting and they no longer count against their user's limit. Returns how
    many."""
    return jobs_expire_stalled(
        TtsExport.objects.all(), error=STALE_ERROR, running_since="started_at"
    )


def tts_export_expires_at(export: TtsExport) -> datetime | None:
    """When a finished export and its zip are deleted (None while it runs)."""
    return job_expires_at(export.finished_at, keep_hours=settings.TTS_EXPORT_KEEP_HOURS)


def tts_export_expired(export: TtsExport, *, now: datetime | None = None) -> bool:
    """Whether an export's time is up (its zip is no longer served, even before the worker
    has deleted it)."""
    expires_at = tts_export_expires_at(export)
    return expires_at is not None and expires_at <= (now or timezone.now())


def tts_exports_delete_expired(*, now: datetime | None = None) -> int:
    """Delete the exports finished more than TTS_EXPORT_KEEP_HOURS ago, each zip, saved
    object and image no other export uses from the media storage first, then the row (lost
    exports are first marked failed). Returns how many exports were deleted."""
    tts_exports_expire_stalled()
    cutoff = (now or timezone.now()) - timedelta(hours=settings.TTS_EXPORT_KEEP_HOURS)
    for export in TtsExport.objects.filter(status__in=FINISHED, finished_at__lt=cutoff):
        export_files_delete(export)
    return jobs_delete_expired(
        TtsExport.objects.all(),
        file_field="archive",
        keep_hours=settings.TTS_EXPORT_KEEP_HOURS,
        now=now,
    )


def tts_export_link_revoke(*, export: TtsExport, actor: User) -> TtsExport:
    """Revoke a private export's link: its images answer 404 at every address given so far,
    so a saved object downloaded before no longer loads them. `actor` must own the export
    (PermissionError otherwise); a public export has no link (ValueError)."""
    _check_owner(export, actor)
    if export.public:
        raise ValueError("a public pack's images have no link to revoke")
    TtsExport.objects.filter(pk=export.pk).update(token="", token_revoked_at=timezone.now())
    export.refresh_from_db()
    return export


def tts_export_link_renew(*, export: TtsExport, actor: User) -> TtsExport:
    """Give a private export a new link (revoking the old one): the saved object downloaded
    from now on points at it. Same checks as `tts_export_link_revoke`."""
    _check_owner(export, actor)
    if export.public:
        raise ValueError("a public pack's images have no link to renew")
    revoked_at = timezone.now() if export.token else export.token_revoked_at
    TtsExport.objects.filter(pk=export.pk).update(token=new_token(), token_revoked_at=revoked_at)
    export.refresh_from_db()
    return export


def _check_owner(export: TtsExport, actor: User) -> None:
    if export.owner_id != actor.pk:
        raise PermissionError("only the export's owner may change its link")
