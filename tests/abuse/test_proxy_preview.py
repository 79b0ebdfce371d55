"""The proxy preview, open to anyone (issue 15, item 4): all five sets on a 1500 x 1500 mm
custom paper cost 7.4 s of CPU each, and 20 at once stalled the site."""

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.abuse.conftest import Probed

# The slow tier (make test-slow, run by CI): each hostile request runs in a bounded child process.
pytestmark = pytest.mark.slow

SETS = [
    "munchkin-core",
    "munchkin-booty",
    "munchkin-impossible",
    "munchkin-spongebob",
    "munchkin-super",
]
DEFAULT_PER_MINUTE = 60  # PROXY_PREVIEW_PER_MINUTE as the child reads it


@pytest.fixture
def catalog(probe: Callable[..., Probed]) -> None:
    call_command("load_catalog", stdout=io.StringIO())


def preview(**options: str) -> dict[str, Any]:
    return {"path": "/proxies/preview.png", "data": {"sets": SETS, **options}}


def test_all_sets_on_a_huge_custom_paper_are_refused_cheaply(
    probe: Callable[..., Probed], catalog: None
) -> None:
    """The reproduction: the paper is past the largest side, named in the JSON reasons the
    page shows beside the preview (issue 17: errors are text, not pixels)."""
    answer = probe(preview(paper="custom", paper_size="1500x1500"))
    assert answer.status == 400, answer
    assert answer.content_type == "application/json"
    assert answer.within_budget(), answer


def test_the_largest_page_allowed_stays_within_budget_from_cold(
    probe: Callable[..., Probed], catalog: None, tmp_path: Path
) -> None:
    """The most cells a page may hold (the largest paper, the smallest card, no margin), every
    face drawn from nothing (an empty face cache): a bounded picture, a bounded number of
    faces."""
    answer = probe(
        preview(
            paper="custom",
            paper_size="600x600",
            card_size="custom",
            custom_card_size="10x10",
            margin="0",
        ),
        env={"FACE_CACHE_DIR": str(tmp_path / "faces")},
    )
    assert answer.status == 200, answer
    assert answer.within_budget(), answer


def test_previews_past_the_rate_are_refused_with_when_to_retry(
    probe: Callable[..., Probed], catalog: None
) -> None:
    """A minute's previews from one address spent (cheap ones: every request counts), the
    next, however costly it would be, is a 429 saying when to retry."""
    spent = [{"path": "/proxies/preview.png"}] * DEFAULT_PER_MINUTE
    answer = probe({**preview(paper="a3"), "before": spent})
    assert answer.status == 429, answer
    assert answer.content_type == "application/json"
    assert answer.retry_after is not None and 1 <= int(answer.retry_after) <= 60
    assert answer.within_budget(), answer
