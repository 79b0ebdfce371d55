"""The pack builder's bounds (issue 15, item 7): lines of "add single cards" and ids in one API
request, refused before any lookup; the lines that are taken are looked up in one query."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from catalog.models import Card
from catalog.selectors import cards_by_reference
from packs.models import Pack

pytestmark = pytest.mark.django_db


def builder(client: Client, add_cards: str, **extra: str) -> Any:
    return client.post("/packs/new/", {"sets": ["munchkin-core"], "add_cards": add_cards, **extra})


def test_too_many_lines_are_refused_naming_the_limit(
    client: Client, core_catalog: None, alice: User, settings: Any
) -> None:
    settings.PACK_BUILDER_MAX_LINES = 5
    client.force_login(alice)
    response = builder(client, "\n".join(["x@y"] * 6), action="build")
    assert response.status_code == 400
    assert "at most 5 lines (one card per line); this has 6" in response.content.decode()
    assert not Pack.objects.exists()
    fits = builder(client, "\n".join(["Net Troll@munchkin-core"] * 5), action="build")
    assert fits.status_code == 302 and Pack.objects.count() == 1


def test_every_line_is_looked_up_in_one_query(core_catalog: None) -> None:
    names = list(Card.objects.values_list("name", flat=True)[:40])
    lines = [f"{name.upper()}@munchkin-core" for name in names]
    lines += ["No Such Card@munchkin-core", "no-at-sign", "Net Troll@nowhere"]

    def count(references: list[str]) -> tuple[int, tuple[list[int], list[str]]]:
        with CaptureQueriesContext(connection) as queries:
            found = cards_by_reference(references=references, viewer=AnonymousUser())
        return len(queries), found

    few, _ = count(lines[:2])
    many, (ids, errors) = count(lines)
    assert many == few  # the same queries for 2 lines as for 43
    expected = list(
        Card.objects.filter(card_set__code="munchkin-core", name__in=names).values_list(
            "pk", flat=True
        )
    )
    assert sorted(ids) == sorted(expected)
    assert errors == [
        "line 41: no card 'No Such Card' in a set 'munchkin-core'",
        "line 42: write Name@set-code, e.g. Net Troll@munchkin-core",
        "line 43: no card 'Net Troll' in a set 'nowhere'",
    ]


def test_the_api_refuses_too_many_ids_before_reading_them(
    core_catalog: None, alice: User, settings: Any
) -> None:
    settings.PACK_API_MAX_ITEMS = 10
    client = APIClient()
    client.force_login(alice)
    for field, value in (
        ("include", list(range(1, 12))),
        ("exclude", list(range(1, 12))),
        ("copies", {str(n): 1 for n in range(1, 12)}),
    ):
        response = client.post(
            "/api/packs/", {"sets": ["munchkin-core"], field: value}, format="json"
        )
        assert response.status_code == 400, response.json()
        body = response.json()
        assert body["object"] == "error" and body["errors"][0]["path"] == field
        assert body["errors"][0]["message"] == "at most 10 items in one request; this has 11"
    assert not Pack.objects.exists()
    troll = Card.objects.get(name="Net Troll")
    ok = client.post(
        "/api/packs/", {"sets": ["munchkin-core"], "exclude": [troll.pk] * 10}, format="json"
    )
    assert ok.status_code == 201
