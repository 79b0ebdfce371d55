"""The leaks of issue 15 (items 9, 10 and 11), sent as the probe sent them. No answer to anyone
but the owner names an unlisted or private set; owner-only files stay out of shared caches.
(The X-Forwarded-Proto half of item 11 needs the real server: tests/cardsite/test_serve.py.)"""

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from catalog.faces import face_key
from catalog.models import Card, CardSet
from catalog.services import card_art_set, card_create, set_create
from packs.services import pack_build, pack_create
from tests.catalog.factories import png_bytes
from tests.conftest import CORE_SET
from tests.factories import monster_document

# The slow tier (make test-slow, run by CI): each hostile request runs in a bounded child process.
pytestmark = [pytest.mark.slow, pytest.mark.django_db]

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


# The Tabletop Simulator zip is a background export's (tests/packs/test_tts_exports.py).
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_11_pack_downloads_are_private(alices_sets: None, alice: User, fmt: str) -> None:
    pack = pack_create(actor=alice, built=pack_build(actor=alice, set_codes=["munchkin-core"]))
    client = Client()
    client.force_login(alice)
    response = client.get(f"/packs/{pack.pk}/download.{fmt}")
    assert response.status_code == 200 and "private" in response["Cache-Control"]


# --------------------------------------------------------------------------------------------
# Card ids are sequential: stepping through them must not find an unlisted set's cards.
# --------------------------------------------------------------------------------------------


@pytest.fixture
def alices_unlisted_cards(alices_sets: None, alice: User, settings: Any, tmp_path: Path) -> Any:
    """Alice's unlisted set: a card with art, and a card started from the official Net Troll
    and left unchanged (its document, and so its digest, is the official card's)."""
    settings.MEDIA_ROOT = tmp_path
    card_set = CardSet.objects.get(code="alice-unlisted")
    ogre = card_create(card_set=card_set, actor=alice, document=monster_document("Hidden Ogre"))
    upload = SimpleUploadedFile("art.png", png_bytes(), content_type="image/png")
    ogre = card_art_set(card=ogre, actor=alice, upload=upload)
    troll = Card.objects.get(card_set__code="munchkin-core", name="Net Troll")
    copy = card_create(card_set=card_set, actor=alice, document=dict(troll.document))
    return ogre, copy, troll


def _answer(response: Any) -> bytes:
    # A streamed answer is read to its end, which closes it as a server would (closing it
    # again would send request_finished outside the test client, and close the database).
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return bytes(response.content)


@pytest.mark.parametrize("login", [False, True], ids=["anonymous", "bob"])
def test_stepping_through_card_ids_finds_no_unlisted_card(
    alices_unlisted_cards: Any, bob: User, login: bool
) -> None:
    ogre, copy, troll = alices_unlisted_cards
    client = APIClient()
    if login:
        client.force_login(bob)
        set_create(owner=bob, code="mine", name="Mine")
    official_digest = face_key(troll)
    for card in (ogre, copy):
        urls = [
            f"/api/cards/{card.pk}/",
            f"/cards/{card.pk}/art",
            f"/faces/{card.pk}/0000000000000000-1.png",  # a wrong digest: no redirect
            f"/faces/{card.pk}/{official_digest}.png",  # the same document's public digest
        ]
        if login:
            urls.append(f"/author/sets/bob-mine/add-card/?from={card.pk}")
            urls.append(f"/author/start-from/?into=bob-mine&from={card.pk}")
        for url in urls:
            response = client.get(url, follow=True)
            assert response.status_code == 404, (url, response.status_code)
            assert not named(_answer(response).decode("utf-8", "replace")), url
        built = client.post(
            "/api/packs/", {"sets": ["munchkin-core"], "include": [card.pk]}, format="json"
        )
        assert built.status_code in (400, 401), built.status_code
        assert not named(built.content.decode()), built.content


def test_a_link_holder_still_sees_an_unlisted_sets_faces_and_art(
    alices_unlisted_cards: Any, bob: User
) -> None:
    ogre, copy, _ = alices_unlisted_cards
    client = Client()
    client.force_login(bob)
    assert client.get("/sets/alice-unlisted/").status_code == 200
    sources: list[str] = []
    for card in (ogre, copy):
        page = client.get(f"/sets/alice-unlisted/{card.slug}/").content.decode()
        sources += re.findall(r'<img[^>]* src="([^"]+)"', page)
    search = client.get("/cards/", {"q": "set:alice-unlisted"}).content.decode()
    sources += re.findall(r'<img[^>]* src="([^"]+)"', search)
    api = client.get("/api/cards/", {"q": "set:alice-unlisted"}).json()
    sources += [row["image"] for row in api["data"]]
    assert len(sources) == 7, sources  # two faces, one art; two faces; two images
    # The art's address proves the set; the faces' digests are bound to it.
    assert f"/cards/{ogre.pk}/art?set=alice-unlisted" in sources
    for source in sources:
        response = client.get(source.replace("&amp;", "&"))
        assert response.status_code == 200, source
        assert response["Content-Type"].startswith("image/"), source
        _answer(response)
    # Starting a card from one of them: the form carries what proves the set.
    set_create(owner=bob, code="mine", name="Mine")
    page = client.get(f"/sets/alice-unlisted/{ogre.slug}/").content.decode()
    form = re.search(r"<form[^>]*start-from[^>]*>(.*?)</form>", page, re.S)
    assert form is not None
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]+)"', form[1]))
    editor = client.get("/author/start-from/", {**fields, "into": "bob-mine"}, follow=True)
    assert editor.status_code == 200 and "Hidden Ogre" in editor.content.decode()


def test_the_owner_alone_reaches_their_unlisted_cards_by_id(
    alices_unlisted_cards: Any, alice: User, bob: User
) -> None:
    ogre, copy, _ = alices_unlisted_cards
    client = APIClient()
    client.force_login(bob)
    assert client.get(f"/api/cards/{ogre.pk}/").status_code == 404
    client.force_login(alice)
    assert client.get(f"/api/cards/{ogre.pk}/").status_code == 200
    with ogre.art.open("rb") as stored:  # the upload as drawn again, without its metadata
        assert _answer(client.get(f"/cards/{ogre.pk}/art")) == stored.read()
    assert client.get(f"/faces/{ogre.pk}/wrong.png", follow=True).status_code == 200
    assert client.get(f"/author/sets/alice-unlisted/add-card/?from={copy.pk}").status_code == 200
    built = client.post(
        "/api/packs/", {"sets": ["munchkin-core"], "include": [ogre.pk]}, format="json"
    )
    assert built.status_code == 201, built.content
