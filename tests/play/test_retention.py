"""Retention (issue 34, item 9): games expire and are pruned (by the task worker after a deal
and by `prune_games`), an expired game's links answer 410, and a game's log has a maximum
length past which a move is refused with nothing changed.

Time is moved, never slept: a game's last move (`updated_at`) is set in the past, or the
prune is given a later `now`."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from packs.models import Pack
from play.models import Game, Seat
from play.retention import PRUNE_FLAG, Pruned, games_delete_expired
from play.selectors import log_full_message
from play.services import GameLogFull, game_create, game_move, game_pack_from_sets
from tests.play.test_api import make_pack
from validator.engine import pack_content_hash

pytestmark = pytest.mark.django_db

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def retention(settings: Any) -> None:
    """The defaults, whatever the environment says."""
    settings.PLAY_ANONYMOUS_GAME_DAYS = 7
    settings.PLAY_GAME_DAYS = 90
    settings.PLAY_MAX_LOG_MOVES = 2000
    settings.PLAY_PRUNE_INTERVAL = 3600


def new_game(pack: Pack, actor: User | None, seats: list[str] | None = None) -> tuple[Game, str]:
    created = game_create(actor=actor, pack=pack, seats=seats or ["person", "bot"], seed=1)
    return created.game, created.tokens[0]


def idle(game: Game, days: float) -> None:
    """No one has moved in the game for `days` days (its clock moved back)."""
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(days=days))


# Pruning


def test_prune_deletes_only_the_games_past_their_days(alice: User) -> None:
    pack = make_pack(alice)
    fresh_anonymous, _ = new_game(pack, None)
    old_anonymous, _ = new_game(pack, None)
    week_old_mine, _ = new_game(pack, alice)
    old_mine, _ = new_game(pack, alice)
    idle(fresh_anonymous, 6.9)
    idle(old_anonymous, 7.1)
    idle(week_old_mine, 7.1)  # a user's game is kept 90 days
    idle(old_mine, 90.1)

    pruned = games_delete_expired()

    assert pruned.games == 2
    assert set(Game.objects.values_list("pk", flat=True)) == {fresh_anonymous.pk, week_old_mine.pk}
    assert set(Seat.objects.values_list("game_id", flat=True)) == {
        fresh_anonymous.pk,
        week_old_mine.pk,
    }
    assert Pack.objects.filter(pk=pack.pk).exists()  # a user's pack is theirs: never pruned


def test_a_later_clock_expires_the_games_then(alice: User) -> None:
    pack = make_pack(alice)
    anonymous, _ = new_game(pack, None)
    mine, _ = new_game(pack, alice)
    now = timezone.now()
    assert games_delete_expired(now=now + timedelta(days=6)).games == 0
    assert games_delete_expired(now=now + timedelta(days=8)).games == 1
    assert list(Game.objects.values_list("pk", flat=True)) == [mine.pk]
    assert games_delete_expired(now=now + timedelta(days=91)).games == 1
    assert not Game.objects.exists() and not Seat.objects.exists()
    assert anonymous.pk != mine.pk


def test_a_move_keeps_a_game(alice: User) -> None:
    """The clock is the last move, not the deal: a game played every day is never pruned."""
    game, _ = new_game(make_pack(alice), None, ["person", "person"])
    idle(game, 6.5)
    game_move(game=game, seat=0, move={"kick_door": True})
    assert games_delete_expired(now=timezone.now() + timedelta(days=1)).games == 0
    assert Game.objects.filter(pk=game.pk).exists()


def test_the_packs_built_for_deals_go_with_their_last_game(alice: User, core_catalog: None) -> None:
    """A pack of whole sets the table built (no owner) is deleted once no game uses it; a
    user's own pack never is."""
    built = game_pack_from_sets(actor=None, set_codes=["munchkin-core"])
    assert built.owner is None
    first, _ = new_game(built, None)
    second, _ = new_game(built, None)
    later = timezone.now() + timedelta(days=8)
    assert games_delete_expired(now=later) == Pruned(games=2, packs=1)
    assert not Pack.objects.filter(pk=built.pk).exists()
    assert first.pk != second.pk


def test_deals_from_the_same_sets_share_one_pack(core_catalog: None) -> None:
    """The table's pack of whole sets is reused while its cards are the same, even when it
    was built earlier (its sha256 covers the time it was built): not 60 KB more a deal."""
    first = game_pack_from_sets(actor=None, set_codes=["munchkin-core"])
    earlier = {**first.document, "generated_at": "2020-01-01T00:00:00+00:00"}
    earlier["sha256"] = pack_content_hash(earlier)
    Pack.objects.filter(pk=first.pk).update(document=earlier, sha256=earlier["sha256"])
    again = game_pack_from_sets(actor=None, set_codes=["munchkin-core"])
    assert again.pk == first.pk and Pack.objects.count() == 1
    # Other cards (a set's card changed since) make a pack of their own.
    changed = {**earlier, "name": "munchkin-core", "decks": {"door": [], "treasure": []}}
    Pack.objects.filter(pk=first.pk).update(document=changed)
    assert game_pack_from_sets(actor=None, set_codes=["munchkin-core"]).pk != first.pk
    assert Pack.objects.count() == 2


def test_a_pack_still_dealt_from_is_kept(alice: User, core_catalog: None) -> None:
    built = game_pack_from_sets(actor=None, set_codes=["munchkin-core"])
    old, _ = new_game(built, None)
    kept, _ = new_game(built, None)
    idle(old, 8)
    Pack.objects.filter(pk=built.pk).update(created_at=timezone.now() - timedelta(days=30))
    pruned = games_delete_expired()
    assert (pruned.games, pruned.packs) == (1, 0)
    assert Pack.objects.filter(pk=built.pk).exists()
    assert list(Game.objects.values_list("pk", flat=True)) == [kept.pk]


def test_the_command_prints_how_many_it_deleted(alice: User) -> None:
    pack = make_pack(alice)
    for _ in range(3):
        idle(new_game(pack, None)[0], 8)
    new_game(pack, None)
    out = io.StringIO()
    call_command("prune_games", stdout=out)
    assert out.getvalue().startswith("Deleted 3 games no one had moved in for 7 days")
    assert Game.objects.count() == 1
    out = io.StringIO()
    call_command("prune_games", stdout=out)
    assert out.getvalue().startswith("Deleted 0 games")


def test_a_deal_prunes_in_the_background_at_most_once_an_interval(
    alice: User, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = IMMEDIATE
    pack = make_pack(alice)
    expired, _ = new_game(pack, None)  # dealt outside the capture: no prune queued
    idle(expired, 8)
    with django_capture_on_commit_callbacks(execute=True):
        new_game(pack, None)
    assert not Game.objects.filter(pk=expired.pk).exists()  # the task pruned it
    assert cache.get(PRUNE_FLAG) is True

    again, _ = new_game(pack, None)
    idle(again, 8)
    with django_capture_on_commit_callbacks(execute=True):
        new_game(pack, None)
    assert Game.objects.filter(pk=again.pk).exists()  # within the interval: not again

    cache.delete(PRUNE_FLAG)  # the interval is over
    with django_capture_on_commit_callbacks(execute=True):
        new_game(pack, None)
    assert not Game.objects.filter(pk=again.pk).exists()


# An expired game's links


def test_an_expired_game_answers_410_until_it_is_pruned_then_404(alice: User) -> None:
    game, token = new_game(make_pack(alice), None)
    api = APIClient()
    browser = Client()
    assert api.get(f"/api/games/{game.pk}/", {"seat": token}).status_code == 200
    idle(game, 7.01)
    for answer in (
        api.get(f"/api/games/{game.pk}/", {"seat": token}),
        api.get(f"/api/games/{game.pk}/moves/", {"seat": token}),
        api.get(f"/api/games/{game.pk}/log/"),
        api.post(
            f"/api/games/{game.pk}/moves/",
            {"seat": token, "move": {"kick_door": True}},
            format="json",
        ),
        api.post(f"/api/games/{game.pk}/undo/", {"seat": token}, format="json"),
    ):
        assert answer.status_code == 410, answer.content
        body = answer.json()
        assert body["code"] == "gone"
        assert body["errors"][0]["message"] == (
            f"game {game.pk} has expired: no one moved in it for 7 days; deal a new one"
        )
    page = browser.get(f"/play/{game.pk}/", {"seat": token})
    assert page.status_code == 410
    assert f"Game {game.pk} has expired" in page.content.decode()
    button = browser.post(f"/play/{game.pk}/move/", {"seat": token, "move": "{}"})
    assert button.status_code == 410
    assert Game.objects.get(pk=game.pk).moves == []  # the expired game was not played

    games_delete_expired()
    page = browser.get(f"/play/{game.pk}/", {"seat": token})
    assert page.status_code == 404
    text = " ".join(page.content.decode().split())
    assert "No game here" in text and "deleted after 7 days without a move" in text
    assert api.get(f"/api/games/{game.pk}/", {"seat": token}).status_code == 404


# The log's maximum length


def play_until(api: APIClient, game: Game, tokens: list[str], length: int) -> None:
    """Make the first legal move of the seat the game waits for until the log holds
    `length` moves (or more: bots answer at once)."""
    for _ in range(100):
        if len(Game.objects.get(pk=game.pk).moves) >= length:
            return
        view = api.get(f"/api/games/{game.pk}/", {"seat": tokens[0]}).json()
        seat = view["waiting_for"][0]
        listed = api.get(f"/api/games/{game.pk}/moves/", {"seat": tokens[seat]}).json()["moves"]
        body = {"seat": tokens[seat], "move": listed[0]["move"]}
        answer = api.post(f"/api/games/{game.pk}/moves/", body, format="json")
        assert answer.status_code == 200, answer.content
    raise AssertionError(f"the log never reached {length} moves")


def test_a_full_log_refuses_the_next_move_and_changes_nothing(alice: User, settings: Any) -> None:
    settings.PLAY_MAX_LOG_MOVES = 4
    created = game_create(actor=None, pack=make_pack(alice), seats=["person", "person"], seed=2)
    game, tokens = created.game, created.tokens
    api = APIClient()
    play_until(api, game, tokens, 4)
    before = Game.objects.get(pk=game.pk)
    assert len(before.moves) == 4
    view = api.get(f"/api/games/{game.pk}/", {"seat": tokens[0]}).json()
    assert view["log_full"] is True
    waiting = view["waiting_for"][0]
    assert api.get(f"/api/games/{game.pk}/moves/", {"seat": tokens[waiting]}).json()["moves"] == []

    answer = api.post(
        f"/api/games/{game.pk}/moves/",
        {"seat": tokens[waiting], "move": {"end_turn": True}},
        format="json",
    )
    assert answer.status_code == 409, answer.content
    body = answer.json()
    assert body["code"] == "log_full"
    assert body["errors"] == [
        {"path": "move", "message": "This game has reached 4 moves; start a new one"}
    ]
    after = Game.objects.get(pk=game.pk)
    assert (after.moves, after.notes, after.updated_at) == (
        before.moves,
        before.notes,
        before.updated_at,
    )
    assert api.get(f"/api/games/{game.pk}/", {"seat": tokens[0]}).json() == view

    # Undo still works, and frees the log for a move again.
    undone = api.post(f"/api/games/{game.pk}/undo/", {"seat": tokens[0]}, format="json")
    assert undone.status_code in {200, 400}, undone.content  # 400: the last move was P2's
    if undone.status_code == 400:
        undone = api.post(f"/api/games/{game.pk}/undo/", {"seat": tokens[1]}, format="json")
    assert undone.status_code == 200 and undone.json()["log_full"] is False


def test_the_refusal_at_the_default_cap_in_players_words(alice: User) -> None:
    """2,000 moves by default; the refusal comes before any replay, so a stored log of that
    length is refused at once (here a log that would not replay: it is never read)."""
    game, _ = new_game(make_pack(alice), None, ["person", "person"])
    Game.objects.filter(pk=game.pk).update(moves=[[0, {"unequip": 1}]] * 2000)
    assert log_full_message() == "This game has reached 2,000 moves; start a new one"
    with pytest.raises(GameLogFull) as refused:
        game_move(game=game, seat=0, move={"equip": 1})
    assert str(refused.value) == "This game has reached 2,000 moves; start a new one"
    assert len(Game.objects.get(pk=game.pk).moves) == 2000


def test_the_table_page_says_the_log_is_full(alice: User, settings: Any) -> None:
    settings.PLAY_MAX_LOG_MOVES = 1
    created = game_create(actor=None, pack=make_pack(alice), seats=["person", "person"], seed=2)
    game, token = created.game, created.tokens[0]
    browser = Client()
    url = f"/play/{game.pk}/?seat={token}"
    move = json.dumps({"kick_door": True})
    assert browser.post(f"/play/{game.pk}/move/", {"seat": token, "move": move}).status_code == 302
    html = browser.get(url).content.decode()
    assert 'data-testid="log-full"' in html
    assert "This game has reached 1 move; start a new one." in html
    assert 'name="move"' not in html  # no move buttons
    assert "data-waiting" not in html  # the page does not wait for a move that cannot come
    before = Game.objects.get(pk=game.pk).moves
    # A button of a page shown before the log was full: refused, in the same words.
    answer = browser.post(
        f"/play/{game.pk}/move/",
        {"seat": token, "move": json.dumps({"end_turn": True})},
        follow=True,
    )
    assert "This game has reached 1 move; start a new one." in answer.content.decode()
    assert Game.objects.get(pk=game.pk).moves == before
