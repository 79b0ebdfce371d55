"""Through the API: a person answers a bot's fight before it resolves (a monster enhancer that
turns it, or a pass), and answers the questions the rules leave to them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from packs.models import Pack
from play.models import Game
from tests.play.test_api import deal, make_pack, state

pytestmark = pytest.mark.django_db

# The person's plain play: answer what is asked, take the turn's steps in order.
ORDER = ("pass", "choose", "choose_option", "charity", "kick_door", "loot_room", "resolve")


@pytest.fixture
def client(alice: User) -> APIClient:
    client = APIClient()
    client.force_login(alice)
    return client


@pytest.fixture
def pack(alice: User) -> Pack:
    return make_pack(alice)


def moves(client: APIClient, game: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    token = game["seats"][seat]["token"]
    answer = client.get(f"/api/games/{game['id']}/moves/", {"seat": token})
    assert answer.status_code == 200, answer.content
    return [entry["move"] for entry in answer.json()["moves"]]


def move(client: APIClient, game: dict[str, Any], seat: int, made: dict[str, Any]) -> Any:
    token = game["seats"][seat]["token"]
    return client.post(
        f"/api/games/{game['id']}/moves/", {"seat": token, "move": made}, format="json"
    )


def to_a_window_with_an_enhancer(
    client: APIClient, game: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play the person's seat plainly until the bot fights and wins while the person may
    answer with a monster enhancer on the monster: that state and the card's move."""
    for _ in range(200):
        seen = state(client, game, 1)
        options = moves(client, game, 1)
        window, combat = seen.get("window"), seen["combat"]
        if window and combat and combat["fighter"] == 0:
            names = {m["card"]["name"] for m in combat["monsters"]}
            enhancers = {c["id"] for c in seen["hand"] if c["kind"] == "monster_enhancer"}
            on_monster = [m for m in options if m.get("play") in enhancers and m.get("on") in names]
            # The munchkins win only with more strength than the monsters (a tie loses).
            if on_monster and combat["side_strength"] > combat["monster_strength"]:
                return seen, on_monster[0]
        chosen = next((m for verb in ORDER for m in options if verb in m), options[-1])
        assert move(client, game, 1, chosen).status_code == 200
    raise AssertionError("no window with an enhancer to play on the bot's monster")


def test_a_person_s_enhancer_in_a_bot_s_fight_changes_its_result(
    client: APIClient, pack: Pack
) -> None:
    # Seed 1 of the core set: the bot fights the Crabs while the person holds an enhancer.
    passing = deal(client, pack, ["bot", "person"], seed=1)
    seen, card = to_a_window_with_an_enhancer(client, passing)
    assert seen["window"]["seats"] == [1] and seen["waiting_for"] == [1]
    assert {"pass": True} in moves(client, passing, 1)
    assert moves(client, passing, 0) == []  # the bot fighter waits for the answer
    level = seen["players"][0]["level"]
    after_pass = move(client, passing, 1, {"pass": True}).json()
    assert after_pass["players"][0]["level"] > level  # the monster is killed

    playing = deal(client, pack, ["bot", "person"], seed=1)
    again, same_card = to_a_window_with_an_enhancer(client, playing)
    assert same_card == card and again["combat"] == seen["combat"]
    name = next(c["name"] for c in again["hand"] if c["id"] == card["play"])
    answer = move(client, playing, 1, card)
    assert answer.status_code == 200, answer.content
    after = answer.json()
    # The card is on the monster, the bot answered, and the fight went on without a kill.
    assert after["players"][0]["level"] <= level
    assert card["play"] not in {c["id"] for c in after["hand"]}
    assert any(name in entry["text"] for entry in after["log"][len(again["log"]) :])


def test_the_state_shows_a_question_and_the_moves_answer_it(client: APIClient, pack: Pack) -> None:
    """Seed 2 of the core set, two people playing plainly: P1 meets a monster whose Bad Stuff
    leaves a choice (two levels, or the whole hand). The state says what, the moves list the
    suggested answer first, a wrong answer is a 400 and changes nothing, a right one is made."""
    game = deal(client, pack, ["person", "person"], seed=2)
    for _ in range(400):
        seen = state(client, game, 0)
        if seen["choice"] is not None:
            break
        seat, options = next(((s, o) for s in (0, 1) if (o := moves(client, game, s))), (None, []))
        assert seat is not None, "no one may move"
        chosen = next((m for verb in ORDER for m in options if verb in m), {"end_turn": True})
        if chosen not in options:
            chosen = options[-1]
        assert move(client, game, seat, chosen).status_code == 200
    choice = seen["choice"]
    assert choice["seat"] == 0 and choice["question"] == "option"
    assert sorted(choice["options"]) == ["Discard your whole hand", "Lose 2 levels"]
    assert seen["waiting_for"] == [0] and moves(client, game, 1) == []
    options = moves(client, game, 0)
    assert options[0] == {"choose_option": choice["suggested"][0]}
    assert sorted(o["choose_option"] for o in options) == [0, 1]
    refused = move(client, game, 0, {"choose_option": 2})
    assert refused.status_code == 400 and refused.json()["code"] == "refused"
    assert state(client, game, 0)["moves_made"] == seen["moves_made"]
    # P1 takes the two levels instead of losing the hand.
    levels = choice["options"].index("Lose 2 levels")
    hand = len(seen["hand"])
    before = seen["players"][0]["level"]
    done = move(client, game, 0, {"choose_option": levels})
    assert done.status_code == 200, done.content
    after = done.json()
    assert after["choice"] is None
    assert after["players"][0]["level"] == max(1, before - 2)
    assert len(after["hand"]) == hand  # the hand is kept


def deal_timed(client: APIClient, pack: Pack, seconds: int) -> Any:
    return client.post(
        "/api/games/",
        {
            "pack": pack.pk,
            "seats": [{"kind": "bot"}, {"kind": "person"}],
            "seed": 1,
            "answer_seconds": seconds,
        },
        format="json",
    )


def time_up(client: APIClient, game: dict[str, Any], seat: int) -> Any:
    token = game["seats"][seat]["token"]
    return client.post(f"/api/games/{game['id']}/time-up/", {"seat": token}, format="json")


def test_when_the_time_to_answer_runs_out_the_chance_passes(client: APIClient, pack: Pack) -> None:
    answer = deal_timed(client, pack, 30)
    assert answer.status_code == 201, answer.content
    game = answer.json()
    seen, _ = to_a_window_with_an_enhancer(client, game)
    assert seen["answer_seconds"] == 30
    stored = Game.objects.get(pk=game["id"])
    # The deadline is the last move's time and the game's 30 seconds.
    deadline = datetime.fromisoformat(seen["answer_by"])
    assert deadline - stored.updated_at == timedelta(seconds=30)

    early = time_up(client, game, 1)
    assert early.status_code == 400 and "runs out in" in early.json()["errors"][0]["message"]
    assert state(client, game, 1)["moves_made"] == seen["moves_made"]

    Game.objects.filter(pk=game["id"]).update(updated_at=stored.updated_at - timedelta(seconds=31))
    late = time_up(client, game, 1)
    assert late.status_code == 200, late.content
    after = late.json()
    assert after["window"] is None and after["answer_by"] is None
    assert after["players"][0]["level"] > seen["players"][0]["level"]  # the bot's kill
    log = client.get(f"/api/games/{game['id']}/log/", {"seat": game["seats"][1]["token"]}).json()
    assert {"seat": 1, "move": {"pass": True}} in log["moves"]


def test_a_game_without_a_timer_waits_and_a_bad_time_is_refused(
    client: APIClient, pack: Pack
) -> None:
    game = deal(client, pack, ["bot", "person"], seed=1)
    seen, _ = to_a_window_with_an_enhancer(client, game)
    assert seen["answer_seconds"] == 0 and seen["answer_by"] is None
    refused = time_up(client, game, 1)
    assert refused.status_code == 400 and "no timer" in refused.json()["errors"][0]["message"]
    bad = deal_timed(client, pack, 7)
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "answer_seconds"
