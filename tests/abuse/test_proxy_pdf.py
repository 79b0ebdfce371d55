"""Proxy PDFs made at once, open to anyone (issue 15): `POST /proxies/` made up to 200 copies
and `POST /api/proxies/` up to 1,000 while the request waited. Drawing each different face from
cold is what costs: 200 copies of 200 different catalogue cards took 6.4 s of CPU (58 MB) and
1,000 copies of the catalogue's 309 different cards 9.5 s (82 MB). Now at most SYNC_FACES
different cards are drawn at once (the page queues more as a background job, the API refuses
them), measured here on the costliest faces a card may have, and PROXY_PDF_PER_HOUR PDFs an
hour per user and per address are made at once."""

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from catalog.models import Card
from catalog.services import card_create, set_create
from prints.jobs import SYNC_COPIES, SYNC_FACES
from prints.models import ProxyJob
from tests.abuse.conftest import Probed
from tests.factories import monster_document

# The slow tier (make test-slow, run by CI): each hostile request runs in a bounded child process.
pytestmark = pytest.mark.slow

API_COPIES = 1000  # prints.api.API_PROXY_COPIES
DEFAULT_PER_HOUR = 30  # PROXY_PDF_PER_HOUR as the child reads it
# Everything that adds to a PDF's cost: the widest bleed on the smallest card (faces 2.5 times
# their size, drawn from cold), duplex backs, full cut lines, the instruction and alignment
# pages.
COSTLY = {
    "card_size": "custom",
    "custom_card_size": "10x10",
    "bleed": "3",
    "backs": "duplex-long",
    "cut_marks": "lines",
    "instructions": "on",
    "alignment_page": "on",
}


@pytest.fixture
def catalog(probe: Callable[..., Probed]) -> None:
    call_command("load_catalog", stdout=io.StringIO())


@pytest.fixture
def cold(tmp_path: Path) -> dict[str, str]:
    """The child's environment: an empty face cache, jobs only queued (no worker)."""
    return {"FACE_CACHE_DIR": str(tmp_path / "faces"), "TASKS_BACKEND": "database"}


def card_lines(copies: int, different: int, set_code: str | None) -> str:
    """`copies` lines naming `different` cards (Name@set-code) in turn, of one set or of the
    whole catalogue."""
    cards = Card.objects.order_by("card_set__code", "name")
    if set_code is not None:
        cards = cards.filter(card_set__code=set_code)
    found = [f"{name}@{code}" for name, code in cards.values_list("name", "card_set__code")]
    assert len(found) >= different
    return "\n".join(found[index % different] for index in range(copies))


def on_the_page(
    copies: int, different: int, *, set_code: str | None = None, **extra: Any
) -> dict[str, Any]:
    data = {"cards": card_lines(copies, different, set_code), **COSTLY}
    return {"method": "POST", "path": "/proxies/", "data": data, **extra}


def on_the_api(
    copies: int, different: int, *, set_code: str | None = None, **extra: Any
) -> dict[str, Any]:
    body = {
        **COSTLY,
        "cards": card_lines(copies, different, set_code),
        "instructions": True,
        "alignment_page": True,
    }
    return {"method": "POST", "path": "/api/proxies/", "body": json.dumps(body), **extra}


@pytest.fixture
def wordy(catalog: None) -> str:
    """mallory's public set of SYNC_FACES cards, each with as much rules text as a card may
    hold (a face of about 100 ms to draw, three times a catalogue card's); its code."""
    mallory = User.objects.create_user("mallory", password="not-used-here")
    card_set = set_create(owner=mallory, code="mallory-wordy", name="Wordy", visibility="public")
    for number in range(SYNC_FACES):
        document = monster_document(
            f"Wordy Ogre {number}",
            bad_stuff=[{"type": "lose_items", "count": 1}] * 20,
            effects=[
                {"type": "strength", "amount": n, "when": {"class": "warrior"}}
                for n in range(1, 21)
            ],
        )
        card_create(card_set=card_set, actor=mallory, document=document)
    return card_set.code


def test_the_largest_pdf_made_at_once_on_the_page_stays_within_budget(
    probe: Callable[..., Probed], wordy: str, cold: dict[str, str]
) -> None:
    """200 copies of SYNC_FACES of the costliest faces, from cold, without logging in."""
    answer = probe(on_the_page(SYNC_COPIES, SYNC_FACES, set_code=wordy), env=cold)
    assert answer.status == 200 and answer.content_type == "application/pdf", answer
    assert answer.within_budget(), answer


def test_the_largest_pdf_of_the_api_stays_within_budget(
    probe: Callable[..., Probed], wordy: str, cold: dict[str, str]
) -> None:
    answer = probe(on_the_api(API_COPIES, SYNC_FACES, set_code=wordy), env=cold)
    assert answer.status == 200 and answer.content_type == "application/pdf", answer
    assert answer.within_budget(), answer


def test_the_reproduction_on_the_page_is_queued_or_sent_to_log_in(
    probe: Callable[..., Probed], catalog: None, cold: dict[str, str]
) -> None:
    """200 copies of 200 different cards: no longer drawn while the request waits."""
    anonymous = probe(on_the_page(SYNC_COPIES, 200), env=cold)
    assert anonymous.status == 302, anonymous
    assert anonymous.within_budget(), anonymous
    assert not ProxyJob.objects.exists()

    carol = User.objects.create_user("carol", password="not-used-here")
    queued = probe(on_the_page(SYNC_COPIES, 200, user="carol"), env=cold)
    assert queued.status == 302, queued
    assert queued.within_budget(), queued
    assert ProxyJob.objects.filter(owner=carol).count() == 1


def test_the_reproduction_on_the_api_is_refused_cheaply(
    probe: Callable[..., Probed], catalog: None, cold: dict[str, str]
) -> None:
    """1,000 copies of the catalogue's 309 different cards."""
    different = Card.objects.count()
    answer = probe(on_the_api(API_COPIES, different), env=cold)
    assert answer.status == 400, answer
    assert f"at most {SYNC_FACES} different cards" in answer.json()["details"]
    assert answer.within_budget(), answer


def test_pdfs_past_the_rate_are_refused_cheaply_with_when_to_retry(
    probe: Callable[..., Probed], wordy: str, cold: dict[str, str]
) -> None:
    """An hour's PDFs from one address spent (small ones: every PDF counts, on the page and
    the API alike), the largest the API would make is a 429 saying when to retry."""
    small = {"method": "POST", "path": "/proxies/", "data": {"cards": "Net Troll"}}
    spent = [small] * DEFAULT_PER_HOUR
    answer = probe(on_the_api(API_COPIES, SYNC_FACES, set_code=wordy, before=spent), env=cold)
    assert answer.status == 429, answer
    assert answer.retry_after is not None and 1 <= int(answer.retry_after) <= 3600
    error = answer.json()
    assert error["code"] == "throttled"
    assert f"at most {DEFAULT_PER_HOUR} an hour from your address" in error["details"]
    assert "Try again in" in error["details"]
    assert answer.within_budget(), answer
