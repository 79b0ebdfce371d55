"""A game stays playable by its seats whatever becomes of its sets; its cards are listed to
others only while every set is public; the table shows the site's faces to those who may see
them."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from catalog.models import Card, CardSet
from catalog.services import card_create, set_create, set_delete, set_update
from play.selectors import add_faces
from tests.factories import monster_document
from tests.play.test_api import GAMES, error, move, moves, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def her_set(alice: User, core_catalog: None) -> CardSet:
    card_set = set_create(owner=alice, code="alice-ogres", name="Ogres", visibility="public")
    card_create(card_set=card_set, actor=alice, document=monster_document("Playtest Ogre", level=3))
    return card_set


def deal(client: APIClient, seed: int = 2) -> dict[str, Any]:
    body = {
        "sets": ["munchkin-core", "alice-ogres"],
        "seats": [{"kind": "person"}, {"kind": "person"}],
        "seed": seed,
    }
    answer = client.post(GAMES, body, format="json")
    assert answer.status_code == 201, answer.content
    result: dict[str, Any] = answer.json()
    return result


def test_a_game_on_a_set_gone_private_or_deleted_stays_playable_but_unlisted(
    alice: User, her_set: CardSet
) -> None:
    client = APIClient()
    client.force_login(alice)
    game = deal(client)
    log_url = f"{GAMES}{game['id']}/log/"
    others = APIClient()  # anyone: no login, no seat
    assert others.get(log_url).status_code == 200  # every set public: the log is anyone's
    set_update(card_set=her_set, actor=alice, visibility="private")
    body = error(others.get(log_url), 403)
    assert "a set of this game is not public" in body["details"]
    bob = APIClient()
    bob.force_login(User.objects.create_user("bob2", password="x" * 12))
    error(bob.get(log_url), 403)
    error(others.get(log_url, {"seat": "guess"}), 403)
    set_delete(card_set=her_set, actor=alice)
    error(client.get(log_url), 403)  # the dealer cannot see the set any more either
    # The seats play on: a seat's token needs no login and no sight of the set.
    friend = APIClient()
    token = {"seat": game["seats"][1]["token"]}
    assert friend.get(log_url, token).status_code == 200
    assert move(friend, game, 0, {"kick_door": True}).status_code == 200
    assert state(friend, game, 1)["moves_made"] >= 1
    assert moves(friend, game, 0) is not None
    page = Client().get(f"/play/{game['id']}/?seat={game['seats'][0]['token']}")
    assert page.status_code == 200 and "P1 kicks open the door" in page.content.decode()


def test_faces_are_shown_only_to_those_who_may_see_the_card(alice: User, her_set: CardSet) -> None:
    def shown(viewer: User | AnonymousUser) -> list[str]:
        cards = [
            {"set": "alice-ogres", "name": "Playtest Ogre"},
            {"set": "munchkin-core", "name": "Elf"},
        ]
        add_faces(cards=cards, viewer=viewer)
        return [c["face"] for c in cards]

    ogre = Card.objects.get(name="Playtest Ogre")
    assert all(url.startswith("/faces/") for url in shown(AnonymousUser()))
    set_update(card_set=her_set, actor=alice, visibility="private")
    anonymous = shown(AnonymousUser())
    assert anonymous[0] == "" and anonymous[1].startswith("/faces/")
    hers = shown(alice)
    assert hers[0].startswith(f"/faces/{ogre.pk}/")
    client = Client()
    client.force_login(alice)
    face = client.get(hers[0])
    assert face.status_code == 200 and face["Content-Type"] == "image/png"
    assert Client().get(hers[0]).status_code == 404  # a private set's face, to no one else


def test_the_table_shows_the_faces_of_the_hand(alice: User, her_set: CardSet) -> None:
    client = APIClient()
    client.force_login(alice)
    game = deal(client, seed=3)
    html = Client().get(f"/play/{game['id']}/?seat={game['seats'][0]['token']}").content.decode()
    hand = re.search(r'data-testid="hand">(.*?)</section>', html, re.S)
    assert hand is not None
    faces = re.findall(r'<img src="(/faces/\d+/[^"]+\.png)"', hand.group(1))
    assert len(faces) == 8  # the rulebook's deal: eight cards, each with its face
    png = Client().get(faces[0])
    assert png.status_code == 200
    image = Image.open(io.BytesIO(png.content))
    # A Munchkin card is 2.5 x 3.5 inches (the site draws faces at true size).
    assert abs(image.width / image.height - 2.5 / 3.5) < 0.02
