"""The playtesting tools: undo, restart, save as scenario (API and services)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from authoring.models import CardScenario
from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from packs.models import Pack
from play.models import Game
from tests.factories import monster_document
from tests.play.test_api import GAMES, deal, error, move, moves, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(alice: User) -> APIClient:
    client = APIClient()
    client.force_login(alice)
    return client


@pytest.fixture
def pack(alice: User) -> Pack:
    from tests.play.test_api import make_pack

    return make_pack(alice)


def log_of(client: APIClient, game: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"{GAMES}{game['id']}/log/", {"seat": game["seats"][0]["token"]})
    assert answer.status_code == 200, answer.content
    body: dict[str, Any] = answer.json()
    return body


def tool(client: APIClient, game: dict[str, Any], seat: int, name: str) -> Any:
    body = {"seat": game["seats"][seat]["token"]}
    return client.post(f"{GAMES}{game['id']}/{name}/", body, format="json")


ONWARD = ("Fight", "Run away", "Kick open the door", "Loot the room", "End the turn")


def onward(listed: list[dict[str, Any]]) -> dict[str, Any]:
    """The move that takes the game on (a turn's steps), else the first listed."""
    for text in ONWARD:
        for entry in listed:
            if entry["text"] == text:
                chosen: dict[str, Any] = entry["move"]
                return chosen
    first: dict[str, Any] = listed[0]["move"]
    return first


def play_until_bots_moved(client: APIClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    """Seat 0 plays on (`onward`) until a move of its is followed by bots' moves;
    returns the log before that move."""
    for _ in range(200):
        before: list[dict[str, Any]] = log_of(client, game)["moves"]
        chosen = onward(moves(client, game, 0))
        assert move(client, game, 0, chosen).status_code == 200
        after = log_of(client, game)["moves"]
        if len(after) > len(before) + 1:
            return before
    raise AssertionError("the bot never moved")


def test_undo_takes_back_the_last_persons_move_and_the_bots_after_it(
    client: APIClient, pack: Pack
) -> None:
    game = deal(client, pack, ["person", "bot"], seed=3)
    dealt = state(client, game, 0)
    before = play_until_bots_moved(client, game)
    made = len(log_of(client, game)["moves"])
    undone = tool(client, game, 0, "undo")
    assert undone.status_code == 200, undone.content
    # The log is cut at the person's move: the bots' moves after it go too.
    log = log_of(client, game)
    assert log["moves"] == before
    assert undone.json()["moves_made"] == len(before) < made - 1
    last = log["lines"][-1]
    assert last.startswith("P1 undoes P1's move (") and "bot moves after it" in last
    assert state(client, game, 0)["log"][-1]["text"] == last
    # Undoing again and again goes back to the deal, with the same hand.
    while tool(client, game, 0, "undo").status_code == 200:
        pass
    again = state(client, game, 0)
    assert again["hand"] == dealt["hand"] and again["moves_made"] == 0


def test_undo_refused_changes_nothing(client: APIClient, pack: Pack) -> None:
    game = deal(client, pack, ["person", "person", "bot"], seed=4)
    body = error(tool(client, game, 0, "undo"), 400)
    assert body["code"] == "refused" and "nothing to undo" in body["details"]
    assert move(client, game, 0, {"kick_door": True}).status_code == 200
    stored = Game.objects.get(pk=game["id"])
    before = (list(stored.moves), list(stored.notes))
    # Only the seat that moved may take it back; a bot's seat never.
    body = error(tool(client, game, 1, "undo"), 400)
    assert body["errors"] == [
        {"path": "seat", "message": "the last person's move is P1's: only they may undo it"}
    ]
    body = error(tool(client, game, 2, "undo"), 400)
    assert "only a person's seat" in body["details"]
    url = f"{GAMES}{game['id']}/undo/"
    error(client.post(url, {}, format="json"), 400)
    error(client.post(url, {"seat": "nope"}, format="json"), 403)
    error(client.post(url, {"seat": game["seats"][0]["token"], "x": 1}, format="json"), 400)
    error(client.post(f"{GAMES}999999/undo/", {"seat": "x"}, format="json"), 404)
    stored.refresh_from_db()
    assert stored.moves == before[0] and stored.notes == before[1]


def test_restart_deals_the_same_cards_to_the_same_seats(client: APIClient, pack: Pack) -> None:
    game = deal(client, pack, ["person", "bot"], seed=5)
    dealt = state(client, game, 0)
    play_until_bots_moved(client, game)
    answer = tool(client, game, 0, "restart")
    assert answer.status_code == 200, answer.content
    again = state(client, game, 0)  # the same link still opens the seat
    assert again["hand"] == dealt["hand"] and again["moves_made"] == 0
    assert again["log"][0]["text"] == "P1 restarts the game: the same seed deals the same cards"
    stored = Game.objects.get(pk=game["id"])
    assert stored.moves == [] and stored.seed == 5 and stored.seats.count() == 2
    body = error(tool(client, game, 1, "restart"), 400)
    assert "only a person's seat" in body["details"]
    url = f"{GAMES}{game['id']}/restart/"
    error(client.post(url, {"seat": 7}, format="json"), 403)
    error(client.post(url, {}, format="json"), 400)
    error(client.post(url, [], format="json"), 400)
    assert Game.objects.get(pk=game["id"]).moves == []


@pytest.fixture
def her_card(alice: User, core_catalog: None) -> Card:
    card_set = set_create(owner=alice, code="alice-ogres", name="Ogres")
    return card_create(
        card_set=card_set, actor=alice, document=monster_document("Playtest Ogre", level=3)
    )


def deal_sets(client: APIClient, sets: list[str], seed: int) -> dict[str, Any]:
    body = {"sets": sets, "seats": [{"kind": "person"}, {"kind": "bot"}], "seed": seed}
    answer = client.post(GAMES, body, format="json")
    assert answer.status_code == 201, answer.content
    result: dict[str, Any] = answer.json()
    return result


def test_save_as_scenario_writes_a_file_the_scenario_command_passes(
    client: APIClient, her_card: Card, tmp_path: Path
) -> None:
    game = deal_sets(client, ["munchkin-core", "alice-ogres"], seed=6)
    play_until_bots_moved(client, game)
    for _ in range(3):
        assert move(client, game, 0, onward(moves(client, game, 0))).status_code == 200
    made = state(client, game, 0)["moves_made"]
    body = {"seat": game["seats"][0]["token"], "card": her_card.pk, "name": "Ogre playtest"}
    answer = client.post(f"{GAMES}{game['id']}/scenario/", body, format="json")
    assert answer.status_code == 201, answer.content
    saved = answer.json()
    assert saved["status"] == "pass", saved["messages"]
    stored = CardScenario.objects.get(pk=saved["id"])
    assert stored.card == her_card and stored.name == "Ogre playtest"
    import yaml

    document = yaml.safe_load(stored.text)
    # The format's keys, exactly: the deal, the steps, the expectations.
    assert set(document) == {"name", "sets", "seed", "players", "deck", "steps", "expect"}
    assert document["sets"] == ["alice-ogres", "munchkin-core"] and document["seed"] == 6
    assert [len(p["hand"]) for p in document["players"]] == [8, 8]
    assert 0 < len(document["steps"]) <= made
    path = tmp_path / "saved.yaml"
    path.write_text(stored.text, encoding="utf-8")
    out = io.StringIO()
    call_command("scenario", str(path), stdout=out)  # raises CommandError on a failure
    assert "1 passed, 0 failed" in out.getvalue()


def test_save_as_scenario_bad_input_stores_nothing(
    client: APIClient, her_card: Card, bob: User
) -> None:
    core_only = deal_sets(client, ["munchkin-core"], seed=7)
    url = f"{GAMES}{core_only['id']}/scenario/"
    token = core_only["seats"][0]["token"]
    # Her card is not in a core-only game's decks.
    answer = error(client.post(url, {"seat": token, "card": her_card.pk}, format="json"), 400)
    assert answer["errors"][0]["path"] == "card"
    game = deal_sets(client, ["munchkin-core", "alice-ogres"], seed=8)
    url = f"{GAMES}{game['id']}/scenario/"
    token = game["seats"][0]["token"]
    core_card = Card.objects.filter(card_set__code="munchkin-core").first()
    assert core_card is not None
    for body, path in (
        ({"seat": token, "card": core_card.pk}, "card"),  # not hers: an official card
        ({"seat": token, "card": 0}, "card"),
        ({"seat": token, "card": "x"}, "card"),
        ({"seat": token, "card": her_card.pk, "name": "n" * 121}, "name"),
        ({"seat": token}, "card"),
    ):
        assert error(client.post(url, body, format="json"), 400)["errors"][0]["path"] == path
    error(APIClient().post(url, {"seat": token, "card": her_card.pk}, format="json"), 401)
    error(client.post(url, {"seat": "nope", "card": her_card.pk}, format="json"), 403)
    other = APIClient()
    other.force_login(bob)
    assert error(other.post(url, {"seat": token, "card": her_card.pk}, format="json"), 400)
    first = client.post(url, {"seat": token, "card": her_card.pk, "name": "Same"}, format="json")
    assert first.status_code == 201
    taken = client.post(url, {"seat": token, "card": her_card.pk, "name": "same"}, format="json")
    assert error(taken, 400)["errors"][0]["path"] == "name"
    assert CardScenario.objects.count() == 1
    assert CardSet.objects.get(code="alice-ogres").owner is not None


def test_the_tools_are_in_the_openapi_schema(client: APIClient) -> None:
    paths = client.get("/api/schema/", {"format": "json"}).json()["paths"]
    for name in ("undo", "restart", "scenario"):
        assert set(paths[f"/api/games/{{game_id}}/{name}/"]) >= {"post"}


def test_the_table_page_has_the_tools_and_says_what_they_did(
    client: APIClient, her_card: Card, alice: User
) -> None:
    from django.test import Client

    game = deal_sets(client, ["munchkin-core", "alice-ogres"], seed=9)
    token = game["seats"][0]["token"]
    link = f"/play/{game['id']}/?seat={token}"
    browser = Client()
    html = browser.get(link).content.decode()
    assert "Undo the last move" in html and "Restart with the same seed" in html
    assert "Log in to save the game as a scenario" in html
    answer = browser.post(f"/play/{game['id']}/undo/", {"seat": token}, follow=True)
    assert "Refused: no person has moved yet: there is nothing to undo." in (
        answer.content.decode()
    )
    assert move(client, game, 0, {"kick_door": True}).status_code == 200
    answer = browser.post(f"/play/{game['id']}/undo/", {"seat": token}, follow=True)
    html = answer.content.decode()
    assert "The last move is taken back." in html
    assert "P1 undoes P1&#x27;s move (Kick open the door)" in html
    answer = browser.post(f"/play/{game['id']}/restart/", {"seat": token}, follow=True)
    assert "P1 restarts the game" in answer.content.decode()
    browser.force_login(alice)
    html = browser.get(link).content.decode()
    assert f'<option value="{her_card.pk}">Playtest Ogre (alice-ogres)</option>' in html
    assert move(client, game, 0, {"kick_door": True}).status_code == 200
    data = {"seat": token, "card": her_card.pk, "name": "From the page"}
    answer = browser.post(f"/play/{game['id']}/scenario/", data, follow=True)
    assert "Saved as the scenario &#x27;From the page&#x27; of Playtest Ogre (it passes)" in (
        answer.content.decode()
    )
    answer = browser.post(f"/play/{game['id']}/scenario/", {**data, "card": 0}, follow=True)
    assert "Not saved: choose one of your cards" in answer.content.decode()
    assert CardScenario.objects.count() == 1
    assert browser.post(f"/play/{game['id']}/undo/", {"seat": "guess"}).status_code == 404


def test_a_hot_seat_game_through_the_api(client: APIClient, pack: Pack) -> None:
    body: dict[str, Any] = {"pack": pack.pk, "seats": [{"kind": "person"}, {"kind": "bot"}]}
    answer = error(client.post(GAMES, {**body, "hot_seat": True}, format="json"), 400)
    assert answer["errors"] == [
        {
            "path": "seats",
            "message": "hot-seat mode passes one device between people: seat two or more",
        }
    ]
    error(client.post(GAMES, {**body, "hot_seat": "maybe"}, format="json"), 400)
    assert Game.objects.count() == 0
    body["seats"] = [{"kind": "person"}, {"kind": "person"}]
    made = client.post(GAMES, {**body, "hot_seat": True}, format="json")
    assert made.status_code == 201 and Game.objects.get().hot_seat
    # Through the API each token still opens its own seat only.
    game = made.json()
    assert error(move(client, game, 1, {"kick_door": True}), 400)["code"] == "refused"
    # In hot-seat mode any person seat may undo: they share the device.
    assert move(client, game, 0, {"kick_door": True}).status_code == 200
    assert tool(client, game, 1, "undo").status_code == 200
    assert Game.objects.get().moves == []
