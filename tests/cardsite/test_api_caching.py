"""Answers tool builders can cache and read from their own pages: ETag, Last-Modified and 304
on every read of the API; CORS for reads only (cardsite/cors.py)."""

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.http import parse_http_date

from catalog.models import Card
from catalog.services import card_update

pytestmark = pytest.mark.django_db

ORIGIN = "https://deckbuilder.example"


def _read_endpoints() -> list[str]:
    bullrog = Card.objects.get(name="Bullrog")
    return [
        "/api/sets/",
        "/api/sets/munchkin-core/",
        "/api/cards/?q=t:monster",
        f"/api/cards/{bullrog.pk}/",
        "/api/cards/named/?fuzzy=bulrog",
        "/api/cards/autocomplete/?q=bull",
        "/api/schema/pack.json",
        "/api/bulk-data/",
        "/api/schema/",
    ]


def test_every_read_answers_304_to_its_own_etag(client: Client, core_catalog: None) -> None:
    for address in _read_endpoints():
        first = client.get(address)
        assert first.status_code == 200, address
        assert first["ETag"].startswith('"'), address
        assert parse_http_date(first["Last-Modified"]) > 0, address
        assert "no-cache" in first["Cache-Control"], address
        again = client.get(address, headers={"If-None-Match": first["ETag"]})
        assert again.status_code == 304, address
        assert again.content == b""
        by_date = client.get(address, headers={"If-Modified-Since": first["Last-Modified"]})
        assert by_date.status_code == 304, address


def test_a_changed_card_is_a_new_answer_even_within_the_same_second(
    client: Client, core_catalog: None
) -> None:
    staff = User.objects.create_user("curator", is_staff=True, is_superuser=True)
    card = Card.objects.get(name="Bullrog")
    address = f"/api/cards/{card.pk}/"
    first = client.get(address)
    treasures = card.document["treasures"] + 1
    document = dict(card.document, treasures=treasures)
    card_update(card=card, actor=staff, document=document, base_revision=card.revision, source="t")
    # Asked at once, in the same second: both the ETag and the date say it changed.
    by_tag = client.get(address, headers={"If-None-Match": first["ETag"]})
    assert by_tag.status_code == 200
    assert by_tag.json()["treasures"] == treasures
    by_date = client.get(address, headers={"If-Modified-Since": first["Last-Modified"]})
    assert by_date.status_code == 200
    assert parse_http_date(by_date["Last-Modified"]) > parse_http_date(first["Last-Modified"])


def test_writes_and_errors_carry_no_etag(client: Client, core_catalog: None) -> None:
    missing = client.get("/api/cards/999999999/")
    assert missing.status_code == 404
    assert not missing.has_header("ETag")


def _cors(response: Any) -> str | None:
    allowed: str | None = response.headers.get("Access-Control-Allow-Origin")
    return allowed


def test_a_cross_origin_read_may_be_read_by_the_other_page(
    client: Client, core_catalog: None
) -> None:
    response = client.get("/api/cards/autocomplete/?q=bull", headers={"Origin": ORIGIN})
    assert _cors(response) == "*"
    assert "ETag" in response["Access-Control-Expose-Headers"]
    preflight = client.options(
        "/api/cards/named/?exact=Bullrog",
        headers={"Origin": ORIGIN, "Access-Control-Request-Method": "GET"},
    )
    assert _cors(preflight) == "*"
    collection = client.post(
        "/api/cards/collection/",
        json.dumps({"identifiers": [{"name": "Bullrog"}]}),
        content_type="application/json",
        headers={"Origin": ORIGIN},
    )
    assert collection.status_code == 200
    assert _cors(collection) == "*"
    assert "Access-Control-Allow-Credentials" not in collection.headers


def test_a_cross_origin_write_is_never_opened_to_the_other_page(
    client: Client, core_catalog: None, alice: User
) -> None:
    preflight = client.options(
        "/api/cards/", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"}
    )
    assert _cors(preflight) is None
    client.force_login(alice)
    write = client.post(
        "/api/sets/",
        json.dumps({"code": "x", "name": "X"}),
        content_type="application/json",
        headers={"Origin": ORIGIN},
    )
    assert _cors(write) is None
    deletion = client.delete("/api/sets/munchkin-core/", headers={"Origin": ORIGIN})
    assert _cors(deletion) is None


def test_pages_are_not_opened_to_other_origins(client: Client, core_catalog: None) -> None:
    assert _cors(client.get("/", headers={"Origin": ORIGIN})) is None
