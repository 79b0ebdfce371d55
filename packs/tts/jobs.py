"""Tabletop Simulator exports made in the background.

Drawing a pack's faces takes seconds (the 168 cards of the core set) to half a minute (1,000
cards): too long for a request. The pack page and the API start a TtsExport instead:
`tts_export_start` records it and enqueues `make_tts_export` on the default task backend
(settings.TASKS); the task calls `tts_export_run`, which renders the zip with the faces already
drawn into the "faces" cache (prints/drawing.py), draws only the others, writes its progress
as it goes, and saves the zip through the default storage.

The zip comes from the exporter registered as EXPORTER ("pack-tts"), through the same
`render` the command calls; the job passes it a `hosting.ExportHost`, which stores the images
as the exporter hands them over and keeps the saved object with file names. The export's
report (the cards with stats not known yet, the cards left out and why) is
`exporter.export_report` of the same parsed document, kept on the export for its page and
the API.

A user has at most TTS_EXPORTS_PER_USER exports waiting or running (more is TooManyRequests, a
429 saying when to retry, and nothing is recorded). Whoever finishes an export deletes the
expired ones (packs/tts/services.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from accounts.limits import job_address, lock_address, refuse_busy_jobs
from catalog.exports import exporter_get
from packs.models import Pack, TtsExport
from packs.selectors import pack_drawn_faces
from packs.tts.exporter import export_report
from packs.tts.hosting import ExportHost, export_hosting_fields
from packs.tts.services import tts_exports_delete_expired, tts_exports_expire_stalled
from prints.background import ACTIVE, FINISHED, describe_error
from prints.models import JobStatus
from validator.engine import PackError, parse_pack

logger = logging.getLogger(__name__)

# The registered exporter the job renders with: another class registered under this
# identifier makes the site's exports without a change here.
EXPORTER: Final = "pack-tts"
# Progress is written at most this often (the job page reloads every 2 s; each write is a
# commit, which costs SQLite an fsync), and always at the last face.
PROGRESS_SECONDS = 0.5
# Module-level so that a test can stop it.
clock = time.monotonic


class TtsExportFailed(Exception):
    """The export ended failed (the error is on its row): the task fails with it."""


def pack_faces(document: dict[str, object]) -> int:
    """How many distinct faces a pack's Tabletop Simulator sheets hold: one per card of its
    Door and Treasure deck lists (copies share a face)."""
    decks = document.get("decks")
    if not isinstance(decks, dict):
        return 0
    return sum(len(decks.get(name) or []) for name in ("door", "treasure"))


def _check_active(user_id: int, address: str) -> None:
    """Refuse past the user's TTS_EXPORTS_PER_USER, then past the address's
    TTS_EXPORTS_PER_ADDRESS (fresh accounts from one address share it)."""
    refuse_busy_jobs(
        waiting=TtsExport.objects.filter(status__in=ACTIVE),
        owner={"owner_id": user_id},
        address=address,
        user_limit=settings.TTS_EXPORTS_PER_USER,
        address_limit=settings.TTS_EXPORTS_PER_ADDRESS,
        what="Tabletop Simulator exports",
    )


def tts_export_start(
    *, pack: Pack, actor: User, base_url: str | None = None, address: str = ""
) -> TtsExport:
    """Record a Tabletop Simulator export of `pack` for `actor` and enqueue it; its page
    shows the progress and then the download. The caller has checked that the actor may see
    the pack. `base_url`: where the saved object's image URLs start (the site's address as
    `hosting.site_base_url` gives it); None is settings.SITE_URL, and with neither the
    images are stored but the saved object names them by file (packs/tts/hosting.py).

    Raises TooManyRequests, and records nothing, when the actor already has
    TTS_EXPORTS_PER_USER exports waiting or running, or `address` (the client address of the
    request that asks, `accounts.limits.client_address`; empty for none)
    TTS_EXPORTS_PER_ADDRESS, whatever the accounts (lost ones, older than STALE_AFTER, no
    longer count). The task is enqueued once the current transaction commits; a backend that
    refuses it leaves the export failed with the reason."""
    tts_exports_expire_stalled()
    address = job_address(address)
    _check_active(actor.pk, address)  # before any write: a refusal costs one count
    with transaction.atomic():
        # The user's row, locked, and the address's lock make two requests at once count one
        # after the other.
        User.objects.select_for_update().filter(pk=actor.pk).first()
        lock_address(address)
        _check_active(actor.pk, address)
        export = TtsExport.objects.create(
            pack=pack,
            owner=actor,
            requested_from=address,
            total=pack_faces(pack.document),
            **export_hosting_fields(
                document=pack.document,
                base_url=settings.SITE_URL if base_url is None else base_url,
            ),
        )
    export_id = export.pk

    def enqueue() -> None:
        try:
            make_tts_export.enqueue(export_id=export_id)
        except Exception as exc:
            logger.exception("Tabletop Simulator export %s could not be queued", export_id)
            _finish_failed(export_id, f"The export could not be queued: {describe_error(exc)}")

    transaction.on_commit(enqueue)
    export.refresh_from_db()
    return export


def progress_writer(export_id: int) -> Callable[[int, int], None]:
    """Write an export's progress: at most every PROGRESS_SECONDS, and at the last face."""
    written_at = clock()

    def progress(done: int, total: int) -> None:
        nonlocal written_at
        now = clock()
        if done < total and now - written_at < PROGRESS_SECONDS:
            return
        TtsExport.objects.filter(pk=export_id, status=JobStatus.RUNNING).update(
            done=done, total=total
        )
        written_at = now

    return progress


def tts_export_run(*, export_id: int) -> None:
    """Make an export's zip: the row goes running, its progress is written as faces are laid
    out, the images are stored under their hashes as the exporter hands them over
    (hosting.ExportHost), then the zip (its saved object pointed at them when the export has
    a base URL), the saved object with file names and the report are saved whole, and the
    row done; any error leaves it failed with the error's text and no zip. An export already
    running or finished is left alone (a task delivered twice renders once). Then the
    expired exports are deleted."""
    export = TtsExport.objects.select_related("pack").filter(pk=export_id).first()
    if export is None or export.status in FINISHED:
        return
    # Claimed by one run only: a task delivered twice at once renders once (two runs would
    # both record the same images).
    claimed = TtsExport.objects.filter(pk=export_id, status=JobStatus.QUEUED).update(
        status=JobStatus.RUNNING, started_at=timezone.now(), done=0, error=""
    )
    if not claimed:
        return
    try:
        _render(export)
    except Exception as exc:  # the export's page says what went wrong; nothing half-made kept
        logger.exception("Tabletop Simulator export %s failed", export_id)
        _finish_failed(export_id, f"The export failed: {describe_error(exc)}")
    try:
        tts_exports_delete_expired()
    except Exception:  # retried after the next export; this one stands
        logger.exception("deleting expired Tabletop Simulator exports failed")


def _render(export: TtsExport) -> None:
    """Render a claimed export with the registered exporter, save its files, mark it done."""
    pack = export.pack
    try:
        document = parse_pack(pack.document, source=f"pack {pack.pk}")
    except PackError as exc:
        raise ValueError("the pack does not load: " + "; ".join(exc.lines())) from exc
    faces = pack_drawn_faces(document=pack.document)
    TtsExport.objects.filter(pk=export.pk).update(drawn_ahead=len(faces))
    host = ExportHost(export)
    filename, _, content = exporter_get(EXPORTER).render(
        document=document, faces=faces, progress=progress_writer(export.pk), host=host
    )
    export.archive.save(f"{export.pk}-{filename}", ContentFile(content), save=False)
    if host.named is not None:
        named, saved = host.named
        export.saved_object.save(f"{export.pk}-{named}", ContentFile(saved), save=False)
    host.ensure_images()
    TtsExport.objects.filter(pk=export.pk).update(
        archive=export.archive.name,
        saved_object=export.saved_object.name,
        # From the document the exporter was given: the zip's README says the same.
        report=export_report(document),
        status=JobStatus.DONE,
        finished_at=timezone.now(),
    )


def _finish_failed(export_id: int, error: str) -> None:
    TtsExport.objects.filter(pk=export_id).update(
        status=JobStatus.FAILED, error=error[:10_000], finished_at=timezone.now()
    )


@task()
def make_tts_export(export_id: int) -> str:
    """The background task: `tts_export_run`, failing (for the backend's records) when the
    export ended failed. Returns the export's final status."""
    tts_export_run(export_id=export_id)
    status = TtsExport.objects.filter(pk=export_id).values_list("status", flat=True).first()
    if status == JobStatus.FAILED:
        raise TtsExportFailed(f"Tabletop Simulator export {export_id} failed")
    return str(status)
