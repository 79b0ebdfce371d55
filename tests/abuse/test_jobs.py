"""Background jobs per user (issue 15, item 6): 12 proxy jobs posted in 1.1 s pushed another
user's simulation from 1.1 s to 106 s, each leaving a 19 MB PDF. Now a user has a few waiting
or running; the rest are refused at once with when to retry, and nothing is queued for them."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from packs.models import Pack, PackSimulation
from prints.models import ProxyJob
from tests.abuse.conftest import Probed
from tests.conftest import CORE_SET
from validator.engine import CardBase, build_pack, load_set_file

# The slow tier (make test-slow, run by CI): each hostile request runs in a bounded child process.
pytestmark = pytest.mark.slow

# Rows only: the child queues jobs in the database and no worker runs them.
QUEUED = {"TASKS_BACKEND": "database"}
DEFAULT_PROXY_JOBS = 2  # PROXY_JOBS_PER_USER as the child reads it
DEFAULT_SIMULATIONS = 3  # SIMULATIONS_PER_USER


@pytest.fixture
def mallory(probe: Callable[..., Probed], core_catalog: None) -> User:
    return User.objects.create_user("mallory", password="not-used-here")


def core_pack(owner: User) -> Pack:
    document = load_set_file(CORE_SET)
    cards: list[CardBase] = list(document.cards)
    decks: dict[str, list[tuple[str, str, int]]] = {"door": [], "treasure": []}
    for card in cards:
        if card.deck in decks:
            decks[card.deck].append(("munchkin-core", card.name, card.copies or 1))
    data: dict[str, Any] = build_pack(
        name="core", sets=[(document.set.model_dump(), cards)], decks=decks
    )
    return Pack.objects.create(owner=owner, name="core", document=data, sha256=data["sha256"])


def test_twelve_proxy_jobs_in_a_row_queue_only_the_users_share(
    probe: Callable[..., Probed], mallory: User
) -> None:
    """The reproduction: twelve large proxy PDFs (over 200 copies each) posted at once."""
    answer = probe(
        {
            "method": "POST",
            "path": "/proxies/",
            "data": {"cards": "\n".join(["Net Troll"] * 250)},
            "user": "mallory",
            "repeat": 12,
        },
        env=QUEUED,
    )
    allowed = DEFAULT_PROXY_JOBS
    assert answer.statuses == [302] * allowed + [429] * (12 - allowed), answer
    assert answer.retry_after is not None and int(answer.retry_after) > 0
    assert "Try again in" in answer.body and f"at a time ({allowed})" in answer.body
    assert answer.within_budget(), answer
    assert ProxyJob.objects.filter(owner=mallory).count() == allowed


def test_twelve_simulations_in_a_row_queue_only_the_users_share(
    probe: Callable[..., Probed], mallory: User
) -> None:
    pack = core_pack(mallory)
    answer = probe(
        {
            "method": "POST",
            "path": f"/packs/{pack.pk}/simulate/",
            "data": {"games": "5000"},
            "user": "mallory",
            "repeat": 12,
        },
        env=QUEUED,
    )
    allowed = DEFAULT_SIMULATIONS
    assert answer.statuses == [302] * allowed + [429] * (12 - allowed), answer
    assert answer.retry_after is not None and int(answer.retry_after) > 0
    assert "Try again in" in answer.body and f"at a time ({allowed})" in answer.body
    assert answer.within_budget(), answer
    assert PackSimulation.objects.filter(requested_by=mallory).count() == allowed
