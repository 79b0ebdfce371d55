"""Proxy jobs per client address (docs/security.md, "Fairness"): fresh accounts from one
address share PROXY_JOBS_PER_ADDRESS beside each account's PROXY_JOBS_PER_USER; past it, a 429
that says when to retry and nothing recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.limits import BUSY_RETRY_SECONDS
from prints import jobs
from prints.models import JobStatus, ProxyJob

pytestmark = pytest.mark.django_db

CARDS = {"cards": "Net Troll\nMaul Rat\nCrabs"}
FLOODER = "203.0.113.7"
NEIGHBOUR = "198.51.100.20"


@pytest.fixture
def background(settings: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Jobs stay queued (no worker runs them); three copies are a background job."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    settings.MEDIA_ROOT = tmp_path
    settings.PROXY_JOBS_PER_USER = 2
    settings.PROXY_JOBS_PER_ADDRESS = 3
    monkeypatch.setattr(jobs, "SYNC_COPIES", 2)


def logged_in(username: str, address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(User.objects.create_user(username, password=None))
    return client


def test_accounts_from_one_address_share_its_proxy_jobs(
    core_catalog: None, background: None
) -> None:
    first, second = logged_in("fresh0", FLOODER), logged_in("fresh1", FLOODER)
    assert [first.post("/proxies/", CARDS).status_code for _ in range(2)] == [302, 302]
    assert second.post("/proxies/", CARDS).status_code == 302
    # The second account has one job of its two, but its address has three of three.
    refused = second.post("/proxies/", CARDS)
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(BUSY_RETRY_SECONDS)
    text = refused.content.decode()
    assert "Your address already has 3 proxy PDFs waiting or running" in text
    assert "the most one address may have at a time (3)" in text
    assert ProxyJob.objects.count() == 3  # nothing recorded
    assert set(ProxyJob.objects.values_list("requested_from", flat=True)) == {FLOODER}

    # Another address is not held back; a finished job frees the address.
    assert logged_in("neighbour", NEIGHBOUR).post("/proxies/", CARDS).status_code == 302
    ProxyJob.objects.filter(owner__username="fresh0").update(
        status=JobStatus.DONE, finished_at=timezone.now()
    )
    assert second.post("/proxies/", CARDS).status_code == 302
