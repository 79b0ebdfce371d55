"""Hostile API bodies, queries and parameters (issue 15, items 3, 12, 13 and 14): each answered
within the budget with an error object or page naming the limit, never a server error."""

import json
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from tests.abuse.conftest import Probed
from tests.factories import monster_document
from tests.hostile import nested_json

# The slow tier (make test-slow, run by CI): each hostile request runs in a bounded child process.
pytestmark = pytest.mark.slow


def conditional_monster(copies: int) -> dict[str, object]:
    effect = {"type": "strength", "amount": 3, "when": {"class": "warrior"}}
    return monster_document(effects=[effect] * copies)


def post_json(
    probe: Callable[..., Probed], path: str, body: str, user: str | None = None
) -> Probed:
    return probe({"method": "POST", "path": path, "body": body, "user": user})


def assert_error_object(answer: Probed, status: int, *words: str) -> None:
    assert answer.within_budget(), answer
    assert answer.status == status, answer
    error = answer.json()
    assert error["object"] == "error", error
    text = json.dumps(error)
    for word in words:
        assert word in text, text


@pytest.mark.parametrize("copies", [1000, 5000])
def test_validate_without_login_refuses_a_card_of_thousands_of_effects(
    probe: Callable[..., Probed], copies: int
) -> None:
    body = json.dumps(conditional_monster(copies))
    assert len(body) > 60_000  # the reported 60 KB and 300 KB
    answer = post_json(probe, "/api/validate/", body)
    # Each effect holds 9 values: past 5,000 the card is refused before it is validated
    # (issue 34), and the answer names where it grew.
    assert_error_object(answer, 400, '"path": "effects"', "at most 5,000 values")


def test_validate_refuses_json_nested_ten_thousand_deep(probe: Callable[..., Probed]) -> None:
    answer = post_json(probe, "/api/validate/", nested_json(10_000))
    assert answer.content_type.startswith("application/json"), answer
    assert_error_object(answer, 400, "nests deeper than 40 levels")


def test_validate_refuses_a_number_of_a_thousand_digits(probe: Callable[..., Probed]) -> None:
    body = json.dumps(monster_document()).replace('"level": 7', '"level": ' + "9" * 1000)
    assert_error_object(post_json(probe, "/api/validate/", body), 400, "1000 digits")


@pytest.mark.parametrize("level", [10**30, 2**63])
def test_api_card_create_refuses_a_level_beyond_the_language(
    probe: Callable[..., Probed], alice: User, level: int
) -> None:
    set_create(owner=alice, code="alice-set", name="Alice's set")
    body = json.dumps({"set": "alice-set", "effects": monster_document(level=level)})
    answer = post_json(probe, "/api/cards/", body, user="alice")
    assert_error_object(answer, 400, "effects.level", "1000000")
    assert not Card.objects.exists()


def test_api_pack_refuses_an_id_beyond_64_bits(probe: Callable[..., Probed], alice: User) -> None:
    set_create(owner=alice, code="alice-set", name="Alice's set")
    body = json.dumps({"sets": ["alice-set"], "include": [2**63]})
    answer = post_json(probe, "/api/packs/", body, user="alice")
    assert_error_object(answer, 400, "include")


@pytest.mark.parametrize("query", ["(" * 330 + "x", "-(" * 250 + "x"])
def test_deeply_nested_queries_are_refused_by_the_api(
    probe: Callable[..., Probed], query: str
) -> None:
    answer = probe({"path": "/api/cards/", "data": {"q": query}})
    assert_error_object(answer, 400, "more than 20 deep")


@pytest.mark.parametrize("query", ["(" * 330 + "x", "-(" * 250 + "x"])
def test_deeply_nested_queries_are_named_on_the_search_page(
    probe: Callable[..., Probed], query: str
) -> None:
    answer = probe({"path": "/cards/", "data": {"q": query}})
    assert answer.within_budget(), answer
    assert answer.status == 200, answer
    assert "more than 20 deep" in answer.body and "This search was not run" in answer.body


def test_unicode_digit_page_on_the_api_is_a_400(probe: Callable[..., Probed]) -> None:
    answer = probe({"path": "/api/cards/", "data": {"q": "kind:monster", "page": "²"}})
    assert_error_object(answer, 400, "page must be a whole number")


def test_unicode_digit_page_on_the_search_page_is_a_400_that_says_so(
    probe: Callable[..., Probed],
) -> None:
    # Issue 17: a page number that is not one is reported on the page, not replaced by page 1.
    answer = probe({"path": "/cards/", "data": {"q": "kind:monster", "page": "²"}})
    assert answer.within_budget(), answer
    assert answer.status == 400, answer
    assert "is not a page number" in answer.body, answer


def test_unicode_digit_start_from_is_a_404(probe: Callable[..., Probed], alice: User) -> None:
    set_create(owner=alice, code="alice-set", name="Alice's set")
    answer = probe(
        {"path": "/author/sets/alice-set/add-card/", "data": {"from": "²"}, "user": "alice"}
    )
    assert answer.status == 404, answer


def test_unicode_digit_base_revision_on_revert_is_a_400(
    probe: Callable[..., Probed], alice: User
) -> None:
    card_set = set_create(owner=alice, code="alice-set", name="Alice's set")
    card = card_create(actor=alice, card_set=card_set, document=monster_document("Probe"))
    answer = probe(
        {
            "method": "POST",
            "user": "alice",
            "path": f"/author/sets/alice-set/cards/{card.slug}/revert/1/",
            "data": {"base_revision": "²"},
        }
    )
    assert answer.status == 400, answer
    assert "base_revision" in answer.body
    assert Card.objects.get(pk=card.pk).revision == 1


@pytest.mark.parametrize("data", [{"copies-1": "²"}, {"exclude": "²"}, {"copies-²": "1"}])
def test_unicode_digits_in_the_pack_builder_are_no_server_error(
    probe: Callable[..., Probed], data: dict[str, str]
) -> None:
    CardSet.objects.all()  # the builder works on the official sets too; none are needed here
    answer = probe({"method": "POST", "path": "/packs/new/", "data": {"sets": "x", **data}})
    assert answer.within_budget(), answer
    assert answer.status < 500, answer
