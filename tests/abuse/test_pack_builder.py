"""The pack builder, open to anyone (issue 15, item 7): one query per "add single cards" line;
20,000 lines took 48 s, 100,000 lines of `x@y` over 60 s and 3.7 GB."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from catalog.models import Card
from packs.models import Pack
from tests.abuse.conftest import Probed

# The slow tier (make test-slow, run by CI): each hostile request runs in a bounded child process.
pytestmark = pytest.mark.slow

DEFAULT_MAX_LINES = 1000  # PACK_BUILDER_MAX_LINES as the child reads it
DEFAULT_MAX_ITEMS = 5000  # PACK_API_MAX_ITEMS


def builder(add_cards: str) -> dict[str, Any]:
    return {
        "method": "POST",
        "path": "/packs/new/",
        "data": {"sets": ["munchkin-core"], "add_cards": add_cards},
    }


def test_a_hundred_thousand_lines_are_refused_cheaply(
    probe: Callable[..., Probed], core_catalog: None
) -> None:
    """The reproduction, at its real size."""
    answer = probe(builder("\n".join(["x@y"] * 100_000)))
    assert answer.status == 400, answer
    assert f"at most {DEFAULT_MAX_LINES} lines" in answer.body
    assert "this has 100000" in answer.body
    assert answer.within_budget(), answer


def test_the_most_lines_allowed_are_looked_up_together(
    probe: Callable[..., Probed], core_catalog: None
) -> None:
    """As many lines as allowed, each naming a real card: one lookup for all of them, so the
    preview stays within budget (the reported 20,000 lines took 2.4 ms each, a query a line)."""
    names = list(Card.objects.values_list("name", flat=True))
    lines = [f"{names[n % len(names)]}@munchkin-core" for n in range(DEFAULT_MAX_LINES)]
    # Warmed by the same preview without the lines: the set's cards validated once and kept,
    # as on a running site.
    warm = ["/", "/packs/new/?sets=munchkin-core"]
    answer = probe({**builder("\n".join(lines)), "warm": warm})
    assert answer.status == 200, answer
    assert answer.within_budget(), answer


def test_the_api_refuses_a_hundred_thousand_ids_cheaply(
    probe: Callable[..., Probed], core_catalog: None, alice: User
) -> None:
    answer = probe(
        {
            "method": "POST",
            "path": "/api/packs/",
            "body": {"sets": ["munchkin-core"], "include": list(range(1, 100_001))},
            "user": "alice",
        }
    )
    assert answer.status == 400, answer
    error = answer.json()
    assert error["object"] == "error" and error["errors"][0]["path"] == "include"
    assert f"at most {DEFAULT_MAX_ITEMS} items" in error["errors"][0]["message"]
    assert answer.within_budget(), answer
    assert not Pack.objects.exists()
