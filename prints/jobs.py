"""Proxy sheets: choosing the cards and options, and making the PDF now or in the background.

Small selections are rendered inside the request (`proxy_pdf_now`): at most SYNC_COPIES copies
of at most SYNC_FACES different cards. What costs is drawing each different face from cold
(35 to 100 ms of CPU each; copies of a face are nearly free), so a selection past either
becomes a ProxyJob run by the task backend, whose page shows its progress and then the
download. PDFs made at once are counted per user and per address (PROXY_PDF_PER_HOUR an hour;
more is TooManyRequests, a 429 saying when to retry).

A user has at most PROXY_JOBS_PER_USER jobs waiting or running (more is TooManyRequests, a
429 saying when to retry). A finished job and its PDF are kept PROXY_JOB_KEEP_HOURS, then
deleted by the worker: each job, once done, deletes the expired ones
(`proxy_jobs_delete_expired`); `manage.py prune_proxy_jobs` does the same from a schedule, for
a site where no job runs for a while.

Both PDFs come from the exporter registered as EXPORTER ("proxies"), through one `render`.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Final

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.files.base import ContentFile
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from accounts.limits import job_address, lock_address, rate_limit, refuse_busy_jobs
from catalog.exports import exporter_get
from prints.background import (
    ACTIVE,
    job_expires_at,
    jobs_delete_expired,
    jobs_expire_stalled,
)
from prints.models import JobStatus, ProxyJob
from prints.proxies import proxy_cards_from_pack
from prints.selectors import proxy_cards_from_catalog
from prints.sheets import ProxyCard, ProxyError, ProxyOptions
from prints.sources import pack_source
from validator.engine import parse_pack

logger = logging.getLogger(__name__)

# The registered exporter both PDFs are made with: another class registered under this
# identifier makes them without a change here.
EXPORTER: Final = "proxies"

# Up to this many copies of at most this many different cards, the PDF is made while the
# request waits. Measured from cold with a 3 mm bleed, duplex backs and full cut lines
# (tests/abuse/test_proxy_pdf.py): 200 copies of 200 different catalogue cards took 6.4 s of
# CPU, 1,000 copies of 309 different 9.5 s, 1,000 copies of 36 different 1.4 s. A face costs
# about 35 ms, one holding as much rules text as a card may about 100 ms (36 of those: 3.9 s),
# and the smallest card with the widest bleed enlarges every face 2.5 times. 1,000 copies of
# 12 such faces took 1.8 s, of 10 of them 1.6 s (200 copies: 1.3 s). Measured again on
# 2026-12-07 (the same test, on this project's CI-sized machine): 1,000 copies of 10 such faces
# 2.2 s, of 8 2.0 s, of 6 1.5 s (200 copies: 1.3 s): 6 keep the costliest PDF made at once
# within issue 15's 2 s whatever the cards and options, with room to spare.
SYNC_COPIES = 200
SYNC_FACES = 6
MAX_COPIES = 3000
# A job waiting or running longer than STALE_AFTER (an hour; the largest PDF takes a few
# minutes) was lost: it stops counting against its user's limit.
STALE_ERROR = "The job was lost before it finished (the server restarted). Start it again."


class PackNotFound(LookupError):
    """The selection names a pack the viewer does not have (pages and the API answer 404)."""


@dataclass
class ProxySelection:
    """Which cards: sets, one of the user's packs, a search query or cards by name."""

    sets: list[str] = field(default_factory=list)
    pack_id: int | None = None
    query: str = ""
    names: list[str] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.sets or self.pack_id or self.query.strip() or self.names)


def proxy_cards(*, selection: ProxySelection, viewer: User | AnonymousUser) -> list[ProxyCard]:
    """The cards of a selection with their copies, as the viewer may see them."""
    if selection.is_empty():
        raise ProxyError("choose what to print: sets, a pack, a search query or card names")
    if selection.pack_id is not None:
        document = pack_source().document(pack_id=selection.pack_id, viewer=viewer)
        if document is None:
            raise PackNotFound(f"No pack {selection.pack_id}")
        cards = proxy_cards_from_pack(parse_pack(document))
    else:
        cards = proxy_cards_from_catalog(
            set_codes=selection.sets or None,
            query=selection.query or None,
            names=selection.names or None,
            viewer=viewer,
        )
    copies = sum(card.copies for card in cards)
    if copies > MAX_COPIES:
        raise ProxyError(f"{copies} copies is more than the {MAX_COPIES} one PDF may hold")
    return cards


def distinct_faces(cards: list[ProxyCard]) -> int:
    """How many different faces a PDF of `cards` draws (one per document and set code)."""
    return len({(card.set_code, card.document_hash) for card in cards})


def made_at_once(cards: list[ProxyCard]) -> bool:
    """Whether the page makes a PDF of `cards` while the request waits: at most SYNC_COPIES
    copies of at most SYNC_FACES different cards (more is a background job)."""
    copies = sum(card.copies for card in cards)
    return copies <= SYNC_COPIES and distinct_faces(cards) <= SYNC_FACES


def proxy_pdf_now(
    *, cards: list[ProxyCard], options: ProxyOptions, idents: list[str]
) -> tuple[str, str, bytes]:
    """Make the PDF while the request waits: (filename, content type, content).

    Counted first against each identity (`accounts.limits.identities`): past
    PROXY_PDF_PER_HOUR in the current hour, TooManyRequests and nothing drawn. The caller
    keeps to `made_at_once`."""
    rate_limit(
        scope="proxy-pdf",
        idents=idents,
        limit=settings.PROXY_PDF_PER_HOUR,
        per="hour",
        what="proxy PDFs made at once",
    )
    return exporter_get(EXPORTER).render(cards=cards, options=options)


def _check_active_jobs(actor: User, address: str) -> None:
    """Refuse past the actor's PROXY_JOBS_PER_USER, then past the address's
    PROXY_JOBS_PER_ADDRESS (fresh accounts from one address share it)."""
    refuse_busy_jobs(
        waiting=ProxyJob.objects.filter(status__in=ACTIVE),
        owner={"owner": actor},
        address=address,
        user_limit=settings.PROXY_JOBS_PER_USER,
        address_limit=settings.PROXY_JOBS_PER_ADDRESS,
        what="proxy PDFs",
    )


def proxy_job_start(
    *, selection: ProxySelection, options: ProxyOptions, actor: User, address: str = ""
) -> ProxyJob:
    """Check the request now (so a mistake is said at once), then make the PDF in the
    background; the job's page shows progress and the download.

    Raises TooManyRequests, and records nothing, when the actor already has
    PROXY_JOBS_PER_USER jobs waiting or running, or `address` (the client address of the
    request that asks, `accounts.limits.client_address`; empty for none)
    PROXY_JOBS_PER_ADDRESS, whatever the accounts (lost ones, older than STALE_AFTER, no
    longer count)."""
    options.check()
    proxy_jobs_expire_stalled()
    address = job_address(address)
    _check_active_jobs(actor, address)  # before the selection is read: a refusal costs one count
    cards = proxy_cards(selection=selection, viewer=actor)
    with transaction.atomic():
        # The user's row, locked, and the address's lock make two requests at once count one
        # after the other.
        User.objects.select_for_update().filter(pk=actor.pk).first()
        lock_address(address)
        _check_active_jobs(actor, address)
        job = ProxyJob.objects.create(
            owner=actor,
            requested_from=address,
            selection=asdict(selection),
            options=asdict(options),
            total=len({card.document_hash for card in cards}),
        )
    transaction.on_commit(lambda: render_proxy_job.enqueue(job.pk))
    return job


def proxy_jobs_expire_stalled() -> int:
    """Mark failed the jobs waiting or running for longer than STALE_AFTER, so that they stop
    counting against their user's limit (and expire like any finished job). Returns how
    many."""
    return jobs_expire_stalled(ProxyJob.objects.all(), error=STALE_ERROR)


def proxy_job_expires_at(job: ProxyJob) -> datetime | None:
    """When a finished job and its PDF are deleted (None while it runs)."""
    return job_expires_at(job.finished_at, keep_hours=settings.PROXY_JOB_KEEP_HOURS)


def proxy_jobs_delete_expired(*, now: datetime | None = None) -> int:
    """Delete the jobs finished more than PROXY_JOB_KEEP_HOURS ago, each PDF from the media
    storage first, then the rows (lost jobs are first marked failed: see
    proxy_jobs_expire_stalled). Returns how many jobs were deleted."""
    proxy_jobs_expire_stalled()
    return jobs_delete_expired(
        ProxyJob.objects.all(), file_field="pdf", keep_hours=settings.PROXY_JOB_KEEP_HOURS, now=now
    )


def _options(data: dict[str, Any]) -> ProxyOptions:
    values = dict(data)
    for key in ("paper_size", "card_size", "back_offset"):
        if values.get(key) is not None:
            values[key] = tuple(values[key])
    return ProxyOptions(**values)


def proxy_job_run(*, job_id: int) -> None:
    """Make a job's PDF: progress as faces are drawn, the file saved whole, or the error."""
    job = ProxyJob.objects.select_related("owner").get(pk=job_id)
    ProxyJob.objects.filter(pk=job_id).update(status=JobStatus.RUNNING)
    try:
        viewer = job.owner if job.owner is not None else AnonymousUser()
        cards = proxy_cards(selection=ProxySelection(**job.selection), viewer=viewer)

        def progress(done: int, total: int) -> None:
            ProxyJob.objects.filter(pk=job_id).update(done=done, total=total)

        filename, _, content = exporter_get(EXPORTER).render(
            cards=cards, options=_options(job.options), progress=progress
        )
        job.pdf.save(f"job-{job.pk}-{filename}", ContentFile(content), save=False)
        ProxyJob.objects.filter(pk=job_id).update(
            pdf=job.pdf.name, status=JobStatus.DONE, finished_at=timezone.now()
        )
    except Exception as exc:  # the job's page says what went wrong; nothing half-made is kept
        logger.exception("proxy job %s failed", job_id)
        ProxyJob.objects.filter(pk=job_id).update(
            status=JobStatus.FAILED,
            error=str(exc) or type(exc).__name__,
            finished_at=timezone.now(),
        )
    # The worker's cleanup: whoever finishes a job deletes the expired ones.
    try:
        proxy_jobs_delete_expired()
    except Exception:  # a failed cleanup is retried after the next job; the job stands
        logger.exception("deleting expired proxy jobs failed")


@task()
def render_proxy_job(job_id: int) -> str:
    proxy_job_run(job_id=job_id)
    return "done"
