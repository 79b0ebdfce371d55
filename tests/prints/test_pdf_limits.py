"""Proxy PDFs made at once (issue 15): PROXY_PDF_PER_HOUR an hour per user and per address,
counted together on the page and the API, then a 429 with Retry-After saying when to retry
and nothing drawn; at most SYNC_FACES different cards at once (more is a background job on the
page, a 400 naming the limit on the API)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounts import limits
from prints import jobs, proxies
from prints.models import ProxyJob

pytestmark = pytest.mark.django_db

SMALL = {"cards": "Net Troll\nMaul Rat"}
# Ten minutes before an hour ends: the refusal waits 600 s.
HOUR_START = 1_700_002_800.0
assert HOUR_START % 3600 == 0


class Clock:
    def __init__(self) -> None:
        self.now = HOUR_START + 3000

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(limits, "_now", clock)
    return clock


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The copies of every PDF drawn (what a refusal must not cost)."""
    seen: list[int] = []
    real = proxies.ProxySheetExporter.render

    def spy(self: proxies.ProxySheetExporter, **kwargs: Any) -> tuple[str, str, bytes]:
        seen.append(sum(card.copies for card in kwargs["cards"]))
        return real(self, **kwargs)

    monkeypatch.setattr(proxies.ProxySheetExporter, "render", spy)
    return seen


def is_pdf(response: Any) -> bool:
    return bool(response.status_code == 200 and response["Content-Type"] == "application/pdf")


def api_pdf(client: APIClient, body: dict[str, Any], **extra: Any) -> Any:
    return client.post("/api/proxies/", body, format="json", **extra)


def test_pdfs_past_the_hourly_rate_are_refused_with_when_to_retry(
    client: Client, core_catalog: None, clock: Clock, rendered: list[int], settings: Any
) -> None:
    settings.PROXY_PDF_PER_HOUR = 2
    for _ in range(2):
        assert is_pdf(client.post("/proxies/", SMALL))
    assert rendered == [2, 2]

    refused = client.post("/proxies/", SMALL)
    assert refused.status_code == 429
    assert refused["Content-Type"].startswith("text/html")
    assert refused["Retry-After"] == "600"
    text = refused.content.decode()
    assert "Too many proxy PDFs made at once: at most 2 an hour from your address." in text
    assert "Try again in 10 minutes." in text
    assert 'data-testid="proxy-errors"' in text  # said on the page, with the form kept
    assert rendered == [2, 2]  # nothing drawn
    assert not ProxyJob.objects.exists()

    assert is_pdf(client.post("/proxies/", SMALL, REMOTE_ADDR="192.0.2.44"))  # another address
    clock.now = HOUR_START + 3600  # the next hour
    assert is_pdf(client.post("/proxies/", SMALL))


def test_the_wait_is_said_in_seconds_near_the_end_of_the_hour(
    client: Client, core_catalog: None, clock: Clock, settings: Any
) -> None:
    settings.PROXY_PDF_PER_HOUR = 1
    clock.now = HOUR_START + 3600 - 42.5
    assert is_pdf(client.post("/proxies/", SMALL))
    refused = client.post("/proxies/", SMALL)
    assert refused.status_code == 429 and refused["Retry-After"] == "43"
    assert "Try again in 43 seconds." in refused.content.decode()


def test_pdfs_are_counted_per_user_across_addresses(
    client: Client, core_catalog: None, alice: User, rendered: list[int], settings: Any
) -> None:
    settings.PROXY_PDF_PER_HOUR = 2
    client.force_login(alice)
    for address in ("192.0.2.1", "192.0.2.2"):
        assert is_pdf(client.post("/proxies/", SMALL, REMOTE_ADDR=address))
    refused = client.post("/proxies/", SMALL, REMOTE_ADDR="192.0.2.3")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "at most 2 an hour from your account" in refused.content.decode()
    assert len(rendered) == 2


def test_the_api_answers_the_error_object_and_counts_with_the_page(
    client: Client, core_catalog: None, clock: Clock, rendered: list[int], settings: Any
) -> None:
    settings.PROXY_PDF_PER_HOUR = 2
    api = APIClient()
    assert is_pdf(client.post("/proxies/", SMALL))
    assert is_pdf(api_pdf(api, {"cards": ["Net Troll"]}))

    refused = api_pdf(api, {"cards": ["Net Troll"]})
    assert refused.status_code == 429
    assert refused["Retry-After"] == "600"
    body = refused.json()
    message = (
        "Too many proxy PDFs made at once: at most 2 an hour from your address. "
        "Try again in 10 minutes."
    )
    assert body == {
        "object": "error",
        "status": 429,
        "code": "throttled",
        "details": message,
        "errors": [{"path": "", "message": message}],
    }
    assert len(rendered) == 2
    assert client.post("/proxies/", SMALL).status_code == 429  # one count for both


def test_api_tokens_are_counted_per_user(
    core_catalog: None, alice: User, rendered: list[int], settings: Any
) -> None:
    settings.PROXY_PDF_PER_HOUR = 1
    api = APIClient()
    api.force_authenticate(alice)
    assert is_pdf(api_pdf(api, {"cards": ["Net Troll"]}, REMOTE_ADDR="192.0.2.1"))
    refused = api_pdf(api, {"cards": ["Net Troll"]}, REMOTE_ADDR="192.0.2.2")
    assert refused.status_code == 429
    assert "from your account" in refused.json()["details"]
    assert len(rendered) == 1


def test_many_different_cards_go_to_the_background_and_do_not_count(
    client: Client,
    core_catalog: None,
    alice: User,
    rendered: list[int],
    settings: Any,
    tmp_path: Path,
) -> None:
    """Past SYNC_FACES different cards the page queues a job (bounded by
    PROXY_JOBS_PER_USER, not by the hourly rate of PDFs made at once); the API refuses."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    settings.MEDIA_ROOT = tmp_path
    settings.PROXY_PDF_PER_HOUR = 1
    many = {"sets": "munchkin-core"}  # 168 copies of 147 different cards
    assert jobs.SYNC_COPIES >= 168 and jobs.SYNC_FACES < 147

    anonymous = client.post("/proxies/", many)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]

    client.force_login(alice)
    assert is_pdf(client.post("/proxies/", SMALL))  # the hour's one PDF made at once
    queued = client.post("/proxies/", many)
    assert queued.status_code == 302 and "/proxies/jobs/" in queued["Location"]
    assert ProxyJob.objects.filter(owner=alice).count() == 1

    api = api_pdf(APIClient(), {"sets": ["munchkin-core"]}, REMOTE_ADDR="192.0.2.9")
    assert api.status_code == 400
    assert (
        f"147 different cards: the API makes PDFs of at most {jobs.SYNC_FACES} different "
        "cards" in api.json()["details"]
    )
    assert rendered == [2]


def test_the_page_says_what_is_made_at_once(client: Client, core_catalog: None) -> None:
    text = client.get("/proxies/").content.decode()
    assert (
        f"Up to {jobs.SYNC_COPIES} copies of at most {jobs.SYNC_FACES} different cards the PDF "
        "comes at once"
    ) in text
