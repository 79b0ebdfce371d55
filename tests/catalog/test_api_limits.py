"""Issue 34's API reproductions, answered as errors of bounded size: the JSON string bomb, a
card of thousands of unknown keys, and the collection endpoint counted like other engine work.
Their cost per request is measured in a bounded child by tests/abuse and tests/fuzz."""

import json
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from catalog.api.throttles import LookupThrottle
from tests.factories import monster_document
from tests.hostile import json_string_bomb

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def post(path: str, body: str) -> tuple[int, dict[str, object], int]:
    response = APIClient().post(path, body, content_type="application/json")
    return response.status_code, response.json(), len(response.content)


def test_the_json_string_bomb_is_a_400_naming_the_syntax() -> None:
    status, error, _ = post("/api/cards/collection/", json_string_bomb(100_000))
    assert status == 400
    assert "Unterminated string" in json.dumps(error)


@pytest.mark.parametrize("where", ["effect", "top"])
def test_a_card_of_150000_unknown_keys_is_refused_before_it_is_validated(where: str) -> None:
    keys = {f"k{i}": 1 for i in range(150_000)}
    effect = {"type": "strength", "amount": 3, **(keys if where == "effect" else {})}
    document = {**monster_document(effects=[effect]), **(keys if where == "top" else {})}
    body = json.dumps(document)
    assert len(body) > 1_900_000  # the 2 MB
    status, error, size = post("/api/validate/", body)
    assert status == 400
    assert "a card may hold at most 5,000 values" in json.dumps(error)
    assert size < 2_000  # was 16.4 MB


def test_a_card_of_2000_unknown_keys_gets_fifty_errors_and_a_count() -> None:
    keys = {f"k{i}": 1 for i in range(2_000)}
    body = json.dumps(monster_document(effects=[{"type": "strength", "amount": 3, **keys}]))
    status, error, size = post("/api/validate/", body)
    assert status == 400
    errors = error["errors"]
    assert isinstance(errors, list) and len(errors) == 51
    assert "1,950 more errors" in json.dumps(errors[-1])
    assert size < 20_000


def test_the_collection_is_counted_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LookupThrottle, "THROTTLE_RATES", {"lookups": "2/min"})
    body = json.dumps({"identifiers": [{"name": "Bullrog"}]})
    assert [post("/api/cards/collection/", body)[0] for _ in range(2)] == [200, 200]
    status, error, _ = post("/api/cards/collection/", body)
    assert status == 429 and error["code"] == "throttled"


def test_the_collection_rate_falls_back_to_its_default() -> None:
    assert "lookups" not in LookupThrottle.THROTTLE_RATES
    assert LookupThrottle().rate == "1200/hour"
