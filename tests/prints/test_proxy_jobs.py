"""Proxy jobs (issue 15, item 6): a few waiting or running per user, refused with a 429 that
says when to retry; lost jobs stop counting; finished ones and their PDFs are deleted by the
worker (and by `prune_proxy_jobs`) PROXY_JOB_KEEP_HOURS after they finished."""

from __future__ import annotations

import io
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.limits import BUSY_RETRY_SECONDS
from prints import jobs
from prints.background import STALE_AFTER
from prints.models import JobStatus, ProxyJob
from prints.sheets import ProxyOptions

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
CARDS = {"cards": "Net Troll\nMaul Rat\nCrabs"}


@pytest.fixture
def background(settings: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Jobs stay queued (no worker runs them); three copies are a background job."""
    settings.TASKS = DUMMY
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr(jobs, "SYNC_COPIES", 2)


def finished_job(owner: User, *, hours_ago: float, name: str) -> ProxyJob:
    job = ProxyJob.objects.create(owner=owner, status=JobStatus.DONE)
    job.pdf.save(name, ContentFile(b"%PDF-1.4 proxies"), save=False)
    finished = timezone.now() - timedelta(hours=hours_ago)
    ProxyJob.objects.filter(pk=job.pk).update(pdf=job.pdf.name, finished_at=finished)
    job.refresh_from_db()
    return job


def stored(job: ProxyJob) -> bool:
    return bool(job.pdf.name) and default_storage.exists(str(job.pdf.name))


def test_a_user_past_the_limit_is_told_when_to_retry(
    client: Client, core_catalog: None, alice: User, bob: User, background: None, settings: Any
) -> None:
    settings.PROXY_JOBS_PER_USER = 2
    client.force_login(alice)
    for _ in range(2):
        assert client.post("/proxies/", CARDS).status_code == 302
    refused = client.post("/proxies/", CARDS)
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(BUSY_RETRY_SECONDS)
    text = refused.content.decode()
    assert "the most one user may have at a time (2)" in text
    assert f"Try again in {BUSY_RETRY_SECONDS} seconds" in text
    assert ProxyJob.objects.filter(owner=alice).count() == 2  # nothing recorded

    other = Client()
    other.force_login(bob)
    assert other.post("/proxies/", CARDS).status_code == 302  # one user's jobs are theirs

    ProxyJob.objects.filter(owner=alice).update(status=JobStatus.DONE, finished_at=timezone.now())
    assert client.post("/proxies/", CARDS).status_code == 302  # finished jobs do not count


def test_lost_jobs_stop_counting(
    client: Client, core_catalog: None, alice: User, background: None, settings: Any
) -> None:
    settings.PROXY_JOBS_PER_USER = 1
    lost = ProxyJob.objects.create(owner=alice, status=JobStatus.RUNNING)
    ProxyJob.objects.filter(pk=lost.pk).update(
        created_at=timezone.now() - STALE_AFTER - timedelta(minutes=1)
    )
    client.force_login(alice)
    assert client.post("/proxies/", CARDS).status_code == 302
    lost.refresh_from_db()
    assert lost.status == JobStatus.FAILED and "lost" in lost.error


def test_the_worker_deletes_expired_jobs_and_their_pdfs(
    core_catalog: None, alice: User, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    settings.PROXY_JOB_KEEP_HOURS = 24
    old = finished_job(alice, hours_ago=25, name="old.pdf")
    recent = finished_job(alice, hours_ago=23, name="recent.pdf")
    failed = ProxyJob.objects.create(owner=alice, status=JobStatus.FAILED, error="x")
    ProxyJob.objects.filter(pk=failed.pk).update(finished_at=timezone.now() - timedelta(hours=30))
    assert stored(old)

    # A job run by the worker: it makes its PDF, then deletes what has expired.
    job = ProxyJob.objects.create(
        owner=alice,
        selection={"sets": [], "pack_id": None, "query": "", "names": ["Net Troll"]},
        options={},
    )
    jobs.proxy_job_run(job_id=job.pk)

    assert set(ProxyJob.objects.values_list("pk", flat=True)) == {recent.pk, job.pk}
    assert not stored(old)
    assert stored(recent)
    job.refresh_from_db()
    assert job.status == JobStatus.DONE and stored(job)


def test_prune_proxy_jobs_deletes_them_on_a_schedule(
    alice: User, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    settings.PROXY_JOB_KEEP_HOURS = 2
    old = finished_job(alice, hours_ago=3, name="old.pdf")
    kept = finished_job(alice, hours_ago=1, name="kept.pdf")
    out = io.StringIO()
    call_command("prune_proxy_jobs", stdout=out)
    assert "Deleted 1 proxy job finished more than 2 hours ago" in out.getvalue()
    assert list(ProxyJob.objects.values_list("pk", flat=True)) == [kept.pk]
    assert not stored(old) and stored(kept)


def test_an_expired_pdf_is_no_longer_served(
    client: Client, alice: User, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    settings.PROXY_JOB_KEEP_HOURS = 24
    fresh = finished_job(alice, hours_ago=1, name="fresh.pdf")
    stale = finished_job(alice, hours_ago=25, name="stale.pdf")
    client.force_login(alice)
    page = client.get(f"/proxies/jobs/{fresh.pk}/").content.decode()
    assert 'data-testid="proxy-expires"' in page and "then deleted" in page
    assert client.get(f"/proxies/jobs/{fresh.pk}/proxies.pdf").status_code == 200
    assert client.get(f"/proxies/jobs/{stale.pk}/proxies.pdf").status_code == 404


def test_a_jobs_options_keep_ink_saving() -> None:
    # A job stores its options as JSON and builds them back when it runs.
    for flag in (True, False):
        assert jobs._options(asdict(ProxyOptions(ink_saving=flag))).ink_saving is flag
    assert jobs._options({}).ink_saving is False  # a job stored before the option existed
