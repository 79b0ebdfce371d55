"""The read API: shapes of lists, cards and errors; the schema and its offline docs."""

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from catalog.models import Card
from tests.conftest import FIXTURE_SETS

pytestmark = pytest.mark.django_db

CARD_KEYS = {
    "id",
    "name",
    "set",
    "deck",
    "kind",
    "copies",
    "level",
    "treasures",
    "levels_gained",
    "bonus",
    "gold",
    "slot",
    "big",
    "tags",
    "text",
    "encoding",
    "validation",
    "effects",
    "image",
    "url",
}


def get(client: Client, url: str, **params: str) -> tuple[int, Any]:
    response = client.get(url, params)
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return response.status_code, response.json()


def test_card_search_returns_the_list_object(client: Client, core_catalog: None) -> None:
    status, body = get(client, "/api/cards/", q="set:munchkin-core t:monster lvl>=16")
    assert status == 200
    assert {k: body[k] for k in ("object", "total", "has_more", "next_page", "warnings")} == {
        "object": "list",
        "total": 6,
        "has_more": False,
        "next_page": None,
        "warnings": [],
    }
    assert sorted(c["name"] for c in body["data"]) == [
        "Bullrog",
        "Hippogriff",
        "King Tut",
        "Plutonium Dragon",
        "Squidzilla",
        "Wight Brothers",
    ]
    card = body["data"][0]
    assert set(card) >= CARD_KEYS
    assert card["set"] == "munchkin-core" and card["effects"]["kind"] == "monster"
    assert card["validation"] == "unchecked" and card["url"].endswith(
        "/sets/munchkin-core/bullrog/"
    )


def test_pages_and_next_page(client: Client, core_catalog: None) -> None:
    _, first = get(client, "/api/cards/", q="set:munchkin-core")
    assert first["total"] == 147 and first["has_more"] and len(first["data"]) == 60
    slugs = dict(Card.objects.values_list("pk", "slug"))
    for card in first["data"]:  # every card its own addresses, not the first card's
        assert card["url"] == f"http://testserver/sets/munchkin-core/{slugs[card['id']]}/"
        assert card["image"].startswith(f"http://testserver/faces/{card['id']}/")
    assert "page=2" in first["next_page"]
    _, last = get(client, "/api/cards/", q="set:munchkin-core", page="3")
    assert not last["has_more"] and last["next_page"] is None and len(last["data"]) == 27


def test_a_malformed_query_gives_warnings_not_an_error(client: Client, core_catalog: None) -> None:
    status, body = get(client, "/api/cards/", q='t:monstr ((( -"')
    assert status == 200 and body["object"] == "list"
    assert any("did you mean 'monster'?" in w for w in body["warnings"])


def test_one_card(client: Client, core_catalog: None) -> None:
    _, found = get(client, "/api/cards/", q='!"Net Troll"')
    card_id = found["data"][0]["id"]
    status, card = get(client, f"/api/cards/{card_id}/")
    assert status == 200 and card["name"] == "Net Troll" and card["level"] == 10


@pytest.mark.parametrize(
    ("url", "params", "status", "code"),
    [
        ("/api/cards/999999/", {}, 404, "not_found"),
        ("/api/sets/no-such-set/", {}, 404, "not_found"),
        ("/api/cards/", {"page": "abc"}, 400, "invalid"),
        ("/api/cards/", {"page": "0"}, 400, "invalid"),
        ("/api/no-such-endpoint/", {}, 404, "not_found"),
    ],
)
def test_errors_have_one_shape(
    client: Client, core_catalog: None, url: str, params: dict[str, str], status: int, code: str
) -> None:
    got, body = get(client, url, **params)
    assert got == status
    assert body["object"] == "error" and body["status"] == status and body["code"] == code
    assert body["details"] and body["errors"][0]["message"]


def test_sets(client: Client, core_catalog: None) -> None:
    _, sets = get(client, "/api/sets/")
    assert sets["object"] == "list" and sets["total"] == 1
    _, core = get(client, "/api/sets/munchkin-core/")
    assert (core["code"], core["cards"], core["copies"], core["cards_in_box"]) == (
        "munchkin-core",
        147,
        168,
        168,
    )


def test_schema_and_offline_docs(client: Client) -> None:
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/cards/" in schema.content
    docs = client.get("/api/docs/").content.decode()
    assert "swagger-ui-bundle.js" in docs and "cdn" not in docs.lower()
    assert 'src="http' not in docs


def test_the_schema_validates_with_no_warning(tmp_path: Any) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = out.read_text()
    assert "tokenAuth" in schema and "/api/validate/" in schema and "/api/scenarios/run/" in schema


def test_a_card_says_how_sure_its_facts_are(client: Client) -> None:
    """A card's `provenance`: its set file's confidence, whether its name is uncertain, and
    each stat with its own confidence: the Electro-Mento Hat's slot is guessed from "Hat"."""
    call_command("load_catalog", str(FIXTURE_SETS / "munchkin-super.yaml"), stdout=StringIO())
    _, body = get(client, "/api/cards/", q='set:munchkin-super !"Electro-Mento Hat"')
    (hat,) = body["data"]
    assert hat["slot"] == "headgear"
    assert hat["provenance"] == {
        "confidence": "low",
        "name_uncertain": False,
        "field_confidence": {"slot": "inferred"},
    }
    _, body = get(client, "/api/cards/", q='set:munchkin-super !"Baron Boron"')
    assert body["data"][0]["provenance"] == {
        "confidence": "low",
        "name_uncertain": True,
        "field_confidence": {},
    }
    schema = client.get("/api/schema/").content.decode()
    assert "field_confidence" in schema and "inferred" in schema
