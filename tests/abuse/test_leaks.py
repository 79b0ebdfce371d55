"""The leaks of issue 15 (items 9, 10 and 11), sent as the probe sent them. No answer to anyone
but the owner names an unlisted or private set; owner-only files stay out of shared caches.
(The X-Forwarded-Proto half of item 11 needs the real server: tests/cardsite/test_serve.py.)"""

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from catalog.services import set_create
from packs.services import pack_build, pack_create
from tests.conftest import CORE_SET

pytestmark = pytest.mark.django_db

HIDDEN = ("alice-unlisted", "alice-private")


@pytest.fixture
def alices_sets(alice: User) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    for visibility in ("unlisted", "private"):
        set_create(owner=alice, code=visibility, name=visibility.title(), visibility=visibility)


def named(text: str) -> list[str]:
    return [code for code in HIDDEN if code in text]


@pytest.mark.parametrize("login", [False, True], ids=["anonymous", "bob"])
def test_9_an_unknown_set_in_a_search_lists_no_hidden_set(
    alices_sets: None, bob: User, login: bool
) -> None:
    client = Client()
    if login:
        client.force_login(bob)
    api = client.get("/api/cards/", {"q": "set:qqqq"}).json()
    assert api["warnings"] and not named(json.dumps(api)), api["warnings"]
    page = client.get("/cards/", {"q": "set:qqqq"}).content.decode()
    assert "unknown set" in page and not named(page)


def test_9_an_unknown_set_in_a_pack_suggests_no_hidden_set(alices_sets: None, bob: User) -> None:
    client = APIClient()
    client.force_login(bob)
    answer = client.post("/api/packs/", {"sets": ["alice-unlistd"]}, format="json")
    assert answer.status_code == 400 and not named(answer.content.decode()), answer.content


def test_10_another_users_private_code_is_not_said_to_be_taken(
    alices_sets: None, bob: User
) -> None:
    client = APIClient()
    client.force_login(bob)
    answer = client.post("/api/sets/", {"code": "alice-private", "name": "Mine"}, format="json")
    assert answer.status_code == 201, answer.content  # in bob's scope: nothing to collide with
    assert answer.json()["code"] == "bob-alice-private"


@pytest.mark.parametrize("fmt", ["json", "yaml", "tts"])
def test_11_pack_downloads_are_private(alices_sets: None, alice: User, fmt: str) -> None:
    pack = pack_create(actor=alice, built=pack_build(actor=alice, set_codes=["munchkin-core"]))
    client = Client()
    client.force_login(alice)
    response = client.get(f"/packs/{pack.pk}/download.{fmt}")
    assert response.status_code == 200 and "private" in response["Cache-Control"]
