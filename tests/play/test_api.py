"""The games API: dealing, seats' secret tokens, legal moves, refusals, whole games to the end."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from packs.models import Pack
from play.api import PlayThrottle
from play.models import Game
from tests.conftest import FIXTURE_SETS
from validator.engine import (
    CardBase,
    build_pack,
    load_set_file,
    parse_pack,
    replay_table,
    table_view,
)

pytestmark = pytest.mark.django_db

GAMES = "/api/games/"


@cache
def core_pack_document() -> dict[str, Any]:
    document = load_set_file(FIXTURE_SETS / "munchkin-core.yaml")
    cards: list[CardBase] = list(document.cards)
    decks: dict[str, list[tuple[str, str, int]]] = {"door": [], "treasure": []}
    for card in cards:
        if card.deck in decks:
            decks[card.deck].append(("munchkin-core", card.name, card.copies or 1))
    return build_pack(name="munchkin-core", sets=[(document.set.model_dump(), cards)], decks=decks)


def make_pack(owner: User) -> Pack:
    data = core_pack_document()
    return Pack.objects.create(
        owner=owner, name=data["name"], document=data, sha256=data["sha256"], card_count=1
    )


@pytest.fixture
def pack(alice: User) -> Pack:
    return make_pack(alice)


@pytest.fixture
def client(alice: User) -> APIClient:
    client = APIClient()
    client.force_login(alice)
    return client


def deal(client: APIClient, pack: Pack, seats: list[str], seed: int = 1) -> dict[str, Any]:
    answer = client.post(
        GAMES,
        {"pack": pack.pk, "seats": [{"kind": kind} for kind in seats], "seed": seed},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body: dict[str, Any] = answer.json()
    return body


def error(answer: Any, status: int) -> dict[str, Any]:
    assert answer.status_code == status, answer.content
    body: dict[str, Any] = answer.json()
    assert body["object"] == "error" and body["status"] == status
    return body


def state(client: APIClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    token = game["seats"][seat]["token"]
    answer = client.get(f"{GAMES}{game['id']}/", {"seat": token})
    assert answer.status_code == 200, answer.content
    body: dict[str, Any] = answer.json()
    return body


def moves(client: APIClient, game: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    token = game["seats"][seat]["token"]
    answer = client.get(f"{GAMES}{game['id']}/moves/", {"seat": token})
    assert answer.status_code == 200, answer.content
    listed: list[dict[str, Any]] = answer.json()["moves"]
    return listed


def move(client: APIClient, game: dict[str, Any], seat: int, made: Any) -> Any:
    body = {"seat": game["seats"][seat]["token"], "move": made}
    return client.post(f"{GAMES}{game['id']}/moves/", body, format="json")


def test_a_game_is_dealt_with_a_secret_token_per_seat(client: APIClient, pack: Pack) -> None:
    game = deal(client, pack, ["person", "bot", "person"], seed=3)
    assert [s["index"] for s in game["seats"]] == [0, 1, 2]
    assert len({s["token"] for s in game["seats"]}) == 3
    stored = Game.objects.get(pk=game["id"])
    assert stored.pack_sha256 == pack.sha256 and stored.seed == 3 and stored.moves == []
    # Only digests are kept: no token is in the database.
    assert all(s["token"] not in str(list(stored.seats.values())) for s in game["seats"])
    view = state(client, game, 0)
    # The rulebook's deal: four Door and four Treasure cards to each player.
    assert [p["hand_size"] for p in view["players"]] == [8, 8, 8]
    assert len(view["hand"]) == 8
    assert view["waiting_for"] == [0] and view["turn"] == 1
    assert {"move": {"kick_door": True}, "text": "Kick open the door"} in moves(client, game, 0)
    assert moves(client, game, 2) == [] or all(
        "kick_door" not in m["move"] for m in moves(client, game, 2)
    )


def test_a_seat_sees_its_own_hand_and_no_other(client: APIClient, pack: Pack) -> None:
    game = deal(client, pack, ["person", "person"], seed=4)
    first = {card["id"] for card in state(client, game, 0)["hand"]}
    second = {card["id"] for card in state(client, game, 1)["hand"]}
    assert len(first) == len(second) == 8
    assert not first & second
    anonymous = APIClient()  # the token, not a login, opens a seat
    assert (
        anonymous.get(f"{GAMES}{game['id']}/", {"seat": game["seats"][1]["token"]}).json()["hand"]
        == state(client, game, 1)["hand"]
    )
    log = anonymous.get(f"{GAMES}{game['id']}/log/", {"seat": game["seats"][1]["token"]}).json()
    assert "hand" not in log and log["moves"] == []


def test_a_refused_move_names_the_rule_and_changes_nothing(client: APIClient, pack: Pack) -> None:
    game = deal(client, pack, ["person", "person"], seed=5)
    before = state(client, game, 0)
    body = error(move(client, game, 1, {"kick_door": True}), 400)
    assert body["code"] == "refused"
    assert body["errors"] == [
        {"path": "move", "message": "only on your own turn, and it is P1's turn"}
    ]
    body = error(move(client, game, 0, {"end_turn": True}), 400)
    assert "kick open the door before ending the turn" in body["details"]
    body = error(move(client, game, 0, {"play": 999999}), 400)
    assert body["code"] == "invalid" and "has no card #999999" in body["details"]
    for malformed, words in (
        ({"fly": True}, "exactly one of"),
        ({"kick_door": True, "loot_room": True}, "one verb"),
        ({"kick_door": "yes"}, "the value is true"),
        ({"equip": "Mace"}, "card's number"),
        ({"sell": list(range(1, 100))}, "list of 1 to 60"),
        ([], "object of 1 to 4 keys"),
        ({}, "object of 1 to 4 keys"),
    ):
        body = error(move(client, game, 0, malformed), 400)
        assert words in body["details"], (malformed, body)
    assert Game.objects.get(pk=game["id"]).moves == []
    assert state(client, game, 0) == before


def test_seats_are_opened_by_their_token_only(client: APIClient, pack: Pack) -> None:
    game = deal(client, pack, ["person", "bot"], seed=6)
    other = deal(client, pack, ["person", "bot"], seed=7)
    url = f"{GAMES}{game['id']}/"
    error(client.get(url), 400)
    error(client.get(url, {"seat": "not-a-token"}), 403)
    error(client.get(url, {"seat": other["seats"][0]["token"]}), 403)
    error(client.get(f"{url}moves/", {"seat": other["seats"][0]["token"]}), 403)
    body = {"seat": other["seats"][0]["token"], "move": {"kick_door": True}}
    error(client.post(f"{url}moves/", body, format="json"), 403)
    error(client.get(f"{GAMES}999999/", {"seat": game["seats"][0]["token"]}), 404)
    error(client.get(f"{GAMES}999999/log/"), 404)
    assert Game.objects.get(pk=game["id"]).moves == []


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"seats": [{"kind": "person"}]}, "seats"),
        ({"seats": [{"kind": "bot"}] * 7}, "seats"),
        ({"seats": [{"kind": "person"}, {"kind": "alien"}]}, "seats[1].kind"),
        ({"seats": [{"kind": "person"}, {"kind": "bot", "name": "x"}]}, "seats[1].name"),
        ({"seats": [{"kind": "person"}] * 2, "seed": -1}, "seed"),
        ({"seats": [{"kind": "person"}] * 2, "seed": 2**31}, "seed"),
        ({"seats": [{"kind": "person"}] * 2, "colour": "red"}, "colour"),
        ({"seats": [{"kind": "person"}] * 2, "sets": ["munchkin-core"]}, "pack"),
        ({"seats": "two"}, "seats"),
        ({"seats": [{"kind": "bot"}] * 2}, "seats"),
    ],
)
def test_bad_deals_are_refused_naming_the_field(
    client: APIClient, pack: Pack, body: dict[str, Any], path: str
) -> None:
    body = {"pack": pack.pk, **body}
    answer = error(client.post(GAMES, body, format="json"), 400)
    assert path in [e["path"] for e in answer["errors"]], answer
    assert Game.objects.count() == 0


def test_a_pack_is_dealt_only_to_its_owner(pack: Pack, bob: User) -> None:
    body = {"pack": pack.pk, "seats": [{"kind": "person"}, {"kind": "bot"}]}
    error(APIClient().post(GAMES, body, format="json"), 401)
    client = APIClient()
    client.force_login(bob)
    answer = error(client.post(GAMES, body, format="json"), 400)
    assert answer["errors"] == [{"path": "pack", "message": f"you have no pack {pack.pk}"}]


def test_moves_are_throttled(
    client: APIClient, pack: Pack, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = deal(client, pack, ["person", "person"], seed=8)
    # Three a minute: the deal, a refused move and a made one; the fourth POST waits.
    monkeypatch.setattr(PlayThrottle, "THROTTLE_RATES", {"play": "3/min"})
    assert move(client, game, 1, {"kick_door": True}).status_code == 400  # counted too
    assert move(client, game, 0, {"kick_door": True}).status_code == 200
    assert error(move(client, game, 0, {"end_turn": True}), 429)["code"] == "throttled"
    seat = {"seat": game["seats"][0]["token"]}
    assert client.get(f"{GAMES}{game['id']}/log/", seat).status_code == 200  # reads: not counted


def test_the_games_endpoints_are_in_the_openapi_schema(client: APIClient) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert set(paths["/api/games/"]) >= {"post"}
    assert set(paths["/api/games/{game_id}/"]) >= {"get"}
    assert set(paths["/api/games/{game_id}/moves/"]) >= {"get", "post"}
    assert set(paths["/api/games/{game_id}/log/"]) >= {"get"}


SEATINGS = (["person", "bot"], ["person", "bot", "bot"], ["person", "person", "bot"])


def play_games(client: APIClient, pack: Pack, count: int) -> None:
    """Whole games through the API, people choosing at random among their legal moves."""
    cards = tuple(parse_pack(pack.document).game_cards())
    player = APIClient()  # a seat's token is all a player needs: no login
    server_errors = refused = finished = won = 0
    for index in range(count):
        seats = SEATINGS[index % len(SEATINGS)]
        game = deal(client, pack, seats, seed=index)
        rng = random.Random(index)
        people = [s for s, kind in enumerate(seats) if kind == "person"]
        over = state(player, game, 0)["over"]
        while not over:
            options = [(seat, m["move"]) for seat in people for m in moves(player, game, seat)]
            assert options, "the game waits for no one"
            seat, chosen = rng.choice(options)
            answer = move(player, game, seat, chosen)
            server_errors += answer.status_code >= 500
            refused += answer.status_code == 400
            over = answer.status_code != 200 or answer.json()["over"]
        final = state(client, game, 0)
        finished += final["over"]
        won += bool(final["winners"])
        token = {"seat": game["seats"][0]["token"]}
        log = client.get(f"{GAMES}{game['id']}/log/", token).json()["moves"]
        replayed = replay_table(
            cards, seats=seats, seed=index, log=[(e["seat"], e["move"]) for e in log]
        )
        for seat in range(len(seats)):
            expected = {
                **table_view(replayed, seat),
                "game": game["id"],
                "log_full": False,
                "answer_seconds": 0,  # no timer: a fight waits for each person to pass
                "answer_by": None,
            }
            assert expected == state(client, game, seat)
    assert (server_errors, refused, finished) == (0, 0, count)
    assert won == count  # 600 turns is far more than a game of bots and people needs


def test_three_games_of_random_legal_moves_end_without_an_error(
    client: APIClient, pack: Pack
) -> None:
    # The quick tier's sample; the slow tier plays the 200 of the issue.
    play_games(client, pack, 3)


@pytest.mark.slow
def test_two_hundred_games_of_random_legal_moves_end_without_an_error(
    client: APIClient, pack: Pack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PlayThrottle, "THROTTLE_RATES", {"play": "1000000/hour"})
    play_games(client, pack, 200)


def test_a_game_of_whole_sets_needs_no_login(core_catalog: None) -> None:
    anonymous = APIClient()
    body = {"sets": ["munchkin-core"], "seats": [{"kind": "person"}, {"kind": "bot"}], "seed": 2}
    first = anonymous.post(GAMES, body, format="json")
    assert first.status_code == 201, first.content
    second = anonymous.post(GAMES, body, format="json")
    assert second.status_code == 201
    pack = Pack.objects.get(pk=first.json()["pack"])
    assert pack.owner is None and first.json()["pack_sha256"] == pack.sha256
    assert len(state(anonymous, second.json(), 0)["hand"]) == 8
    unknown = {**body, "sets": ["no-such-set"]}
    answer = error(anonymous.post(GAMES, unknown, format="json"), 400)
    assert "no-such-set" in answer["details"]
