"""Background jobs per client address (docs/security.md, "Fairness"): fresh accounts from one
address share SIMULATIONS_PER_ADDRESS and TTS_EXPORTS_PER_ADDRESS, beside each account's own
limit; past it, a 429 that says when to retry, and nothing recorded or queued."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from accounts.limits import BUSY_RETRY_SECONDS
from packs.models import Pack, PackSimulation, SimulationStatus, TtsExport
from packs.services import pack_build, pack_create
from prints.models import JobStatus
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
FLOODER = "203.0.113.7"
NEIGHBOUR = "198.51.100.20"


def fresh_account(n: int, address: str = FLOODER) -> Client:
    """A new account, signed up and logged in from `address`, as a flood makes them."""
    client = Client(REMOTE_ADDR=address)
    answer = client.post(
        "/accounts/signup/",
        {"username": f"fresh{n}", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert answer.status_code == 302
    return client


@pytest.fixture
def shared_pack(core_catalog: None) -> Pack:
    """A pack with no owner: anyone may simulate it."""
    built = pack_build(actor=None, set_codes=["munchkin-core"], query="t:monster", name="Core")
    return pack_create(actor=None, built=built)


def test_fresh_accounts_from_one_address_share_its_simulations(
    shared_pack: Pack, settings: Any
) -> None:
    settings.TASKS = DUMMY  # the simulations stay queued: they all count
    per_user, per_address = settings.SIMULATIONS_PER_USER, settings.SIMULATIONS_PER_ADDRESS
    start = reverse("packs:simulation_start", kwargs={"pack_id": shared_pack.pk})
    accounts = [fresh_account(n) for n in range(per_address // per_user + 1)]
    started = [
        account.post(start, {"games": "5"}).status_code
        for account in accounts
        for _ in range(per_user)
    ]
    # Every account within its own limit, but the address past its own from the first over.
    assert started == [302] * per_address + [429] * (len(started) - per_address)
    refused = accounts[-1].post(start, {"games": "5"})
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(BUSY_RETRY_SECONDS)
    text = refused.content.decode()
    assert (
        f"Your address already has {per_address} simulations waiting or running, the most one "
        f"address may have at a time ({per_address})."
    ) in text
    assert f"Try again in {BUSY_RETRY_SECONDS} seconds" in text
    # The refusals recorded nothing.
    assert PackSimulation.objects.count() == per_address
    assert set(PackSimulation.objects.values_list("requested_from", flat=True)) == {FLOODER}

    # Another address is not held back; the address has room again once one has finished.
    assert fresh_account(99, NEIGHBOUR).post(start, {"games": "5"}).status_code == 302
    finished = PackSimulation.objects.filter(requested_from=FLOODER).first()
    assert finished is not None
    PackSimulation.objects.filter(pk=finished.pk).update(status=SimulationStatus.DONE)
    assert accounts[-1].post(start, {"games": "5"}).status_code == 302


@pytest.fixture
def tts_limits(settings: Any, tmp_path: Path) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.TTS_EXPORTS_PER_USER = 2
    settings.TTS_EXPORTS_PER_ADDRESS = 3


def test_fresh_accounts_from_one_address_share_its_exports_on_the_page_and_the_api(
    core_catalog: None, tts_limits: None
) -> None:
    accounts = [fresh_account(n) for n in range(2)]
    users = list(User.objects.order_by("pk"))
    packs = [
        pack_create(actor=user, built=pack_build(actor=user, set_codes=["munchkin-core"]))
        for user in users
    ]
    first, second = accounts
    assert [first.post(f"/packs/{packs[0].pk}/tts/").status_code for _ in range(2)] == [302, 302]
    assert second.post(f"/packs/{packs[1].pk}/tts/").status_code == 302
    queued_tasks = DBTaskResult.objects.count()
    # The second account has one export of its two, but its address has three of three.
    refused = second.post(f"/packs/{packs[1].pk}/tts/")
    assert refused.status_code == 429 and refused["Retry-After"] == str(BUSY_RETRY_SECONDS)
    assert "the most one address may have at a time (3)" in refused.content.decode()
    api = APIClient(REMOTE_ADDR=FLOODER)
    api.force_login(users[1])
    answer = api.post(f"/api/packs/{packs[1].pk}/tts/")
    assert answer.status_code == 429 and answer["Retry-After"] == str(BUSY_RETRY_SECONDS)
    assert answer.json()["code"] == "throttled"
    assert "Your address already has 3 Tabletop Simulator exports" in str(answer.json())
    # Nothing recorded, nothing queued by the refusals.
    assert TtsExport.objects.count() == 3 and DBTaskResult.objects.count() == queued_tasks

    # From another address the same account may; a finished export frees the address.
    elsewhere = APIClient(REMOTE_ADDR=NEIGHBOUR)
    elsewhere.force_login(users[1])
    assert elsewhere.post(f"/api/packs/{packs[1].pk}/tts/").status_code == 202
    TtsExport.objects.filter(owner=users[0]).update(
        status=JobStatus.DONE, finished_at=timezone.now()
    )
    assert first.post(f"/packs/{packs[0].pk}/tts/").status_code == 302


def test_the_address_limits_are_settings_of_their_own() -> None:
    # Looser than one account's: people behind one address (a household, a club) share it.
    assert settings.SIMULATIONS_PER_ADDRESS >= settings.SIMULATIONS_PER_USER
    assert settings.TTS_EXPORTS_PER_ADDRESS >= settings.TTS_EXPORTS_PER_USER
    assert settings.PROXY_JOBS_PER_ADDRESS >= settings.PROXY_JOBS_PER_USER
