"""Never lose a table (issue 37, items 6 and 7): dealing redirects to a dealt page that a
refresh does not deal again, seat tokens derived from the SECRET_KEY and a salt of the game
(so the dealer can be shown them again while the database holds only their digests), and
"Your games", the games one dealt and the seats one opened."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from packs.models import Pack
from play.models import Game, OpenedSeat, Seat
from play.remembered import KEEP, dealt_ids, remember_dealt
from play.selectors import game_table, your_games
from play.services import game_create
from tests.play.test_api import make_pack
from validator.engine import apply_move, bot_move, run_bots, seats_to_move

pytestmark = pytest.mark.django_db

LINK = re.compile(r'href="(/play/(\d+)/\?seat=([^"]+))"')


@pytest.fixture(autouse=True)
def retention(settings: Any) -> None:
    """The documented defaults, whatever the environment says."""
    settings.PLAY_ANONYMOUS_GAME_DAYS = 7
    settings.PLAY_GAME_DAYS = 90


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post_deal(client: Client, data: dict[str, Any]) -> Any:
    """POST /play/new/: the answer must be a redirect to the new game's dealt page."""
    answer = client.post("/play/new/", data)
    game = Game.objects.order_by("-pk").first()
    assert game is not None and answer.status_code == 302, answer.content.decode()[:2000]
    assert answer["Location"] == f"/play/{game.pk}/dealt/"
    return answer


def deal_pack(client: Client, pack: Pack, seats: list[str], seed: int = 1) -> Game:
    data: dict[str, Any] = {"pack": pack.pk, "seed": seed}
    data |= {f"seat_{i}": kind for i, kind in enumerate(seats)}
    post_deal(client, data)
    return Game.objects.order_by("-pk")[0]


def links_of(html: str) -> list[str]:
    """The seat links of a page, in order (each link once)."""
    return list(dict.fromkeys(match[0] for match in LINK.findall(html)))


def idle(game: Game, days: float) -> None:
    """No one has moved in the game for `days` days (its clock moved back, nothing slept)."""
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(days=days))


# The dealt page: Post/Redirect/Get, and only for the dealer


def test_refreshing_the_dealt_page_deals_nothing_and_shows_the_same_links(alice: User) -> None:
    client = logged_in(alice)
    game = deal_pack(client, make_pack(alice), ["person", "bot", "person"], seed=3)
    first = client.get(f"/play/{game.pk}/dealt/")
    second = client.get(f"/play/{game.pk}/dealt/")  # the refresh
    assert Game.objects.count() == 1
    assert first.status_code == second.status_code == 200
    links = links_of(first.content.decode())
    assert len(links) == 2  # the two person seats; the bot's seat has no link
    assert links_of(second.content.decode()) == links
    assert "no-store" in first["Cache-Control"]  # secret links: never cached
    # Each link opens its own seat, for anyone who has it.
    friend = Client()
    assert "P1 (you)" in friend.get(links[0]).content.decode()
    assert "P3 (you)" in friend.get(links[1]).content.decode()


def test_only_the_dealing_browser_or_account_sees_the_links(
    alice: User, bob: User, core_catalog: None
) -> None:
    # Anonymous: the dealing browser's session alone.
    browser = Client()
    post_deal(browser, {"sets": ["munchkin-core"], "seat_0": "person", "seat_1": "bot"})
    anonymous_game = Game.objects.get()
    dealt = f"/play/{anonymous_game.pk}/dealt/"
    assert anonymous_game.created_by is None
    assert len(links_of(browser.get(dealt).content.decode())) == 1
    for other in (Client(), logged_in(bob), logged_in(alice)):
        answer = other.get(dealt)
        assert answer.status_code == 403 and "seat=" not in answer.content.decode()

    # Logged in: the account, on any device, and no one else.
    post_deal(logged_in(alice), {"sets": ["munchkin-core"], "seat_0": "person", "seat_1": "bot"})
    hers = Game.objects.get(created_by=alice)
    dealt = f"/play/{hers.pk}/dealt/"
    another_device = logged_in(alice)
    assert len(links_of(another_device.get(dealt).content.decode())) == 1
    assert logged_in(bob).get(dealt).status_code == 403
    assert Client().get(dealt).status_code == 403
    assert Client().get(f"/play/{hers.pk + 100}/dealt/").status_code == 404
    assert another_device.post(dealt).status_code == 405  # a page to look at, nothing to post


def test_an_expired_game_s_dealt_page_is_gone(alice: User) -> None:
    client = logged_in(alice)
    game = deal_pack(client, make_pack(alice), ["person", "bot"])
    idle(game, 91)
    answer = client.get(f"/play/{game.pk}/dealt/")
    assert answer.status_code == 410 and "seat=" not in answer.content.decode()


# Derived tokens


def test_a_derived_token_opens_its_seat_and_only_its_sha256_is_stored(alice: User) -> None:
    pack = make_pack(alice)
    created = game_create(actor=alice, pack=pack, seats=["person", "person"], seed=5)
    again = game_create(actor=alice, pack=pack, seats=["person", "person"], seed=5)
    tokens = created.tokens
    assert len(set(tokens + again.tokens)) == 4  # each game has a salt of its own
    seats = list(Seat.objects.filter(game=created.game).order_by("index"))
    assert [s.token_sha256 for s in seats] == [
        hashlib.sha256(t.encode()).hexdigest() for t in tokens
    ]
    # No column of the game or its seats holds a token.
    stored = repr(list(Game.objects.filter(pk=created.game.pk).values())) + repr(
        list(Seat.objects.filter(game=created.game).values())
    )
    assert not any(token in stored for token in tokens)
    page = Client().get(f"/play/{created.game.pk}/?seat={tokens[1]}")
    assert page.status_code == 200 and "P2 (you)" in page.content.decode()
    # The dealer is given the same tokens back.
    dealt = logged_in(alice).get(f"/play/{created.game.pk}/dealt/").content.decode()
    assert [token for _, _, token in LINK.findall(dealt)] == tokens


def test_the_links_depend_on_the_secret_key(alice: User, settings: Any) -> None:
    created = game_create(actor=alice, pack=make_pack(alice), seats=["person", "bot"], seed=2)
    url = f"/play/{created.game.pk}/dealt/"
    old_key = settings.SECRET_KEY
    # Another key (the database alone, without the server's key): no link is worked out.
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    page = logged_in(alice).get(url).content.decode()
    assert links_of(page) == [] and 'data-testid="links-not-kept"' in page
    # The old key kept as a fallback: the same link again.
    settings.SECRET_KEY_FALLBACKS = [old_key]
    page = logged_in(alice).get(url).content.decode()
    assert links_of(page) == [f"/play/{created.game.pk}/?seat={created.tokens[0]}"]


def test_a_game_s_old_random_token_still_opens_its_seat(alice: User) -> None:
    created = game_create(actor=alice, pack=make_pack(alice), seats=["person", "bot"], seed=4)
    game = created.game
    # A game dealt before the salt: random tokens, only their digests stored.
    token = secrets.token_urlsafe(24)
    Game.objects.filter(pk=game.pk).update(token_salt="")
    Seat.objects.filter(game=game, index=0).update(
        token_sha256=hashlib.sha256(token.encode()).hexdigest()
    )
    client = logged_in(alice)
    page = client.get(f"/play/{game.pk}/?seat={token}")
    assert page.status_code == 200 and "P1 (you)" in page.content.decode()
    assert client.get(f"/play/{game.pk}/?seat={created.tokens[0]}").status_code == 404
    # Its links cannot be given back: the dealt page and the list say so, showing none.
    dealt = client.get(f"/play/{game.pk}/dealt/").content.decode()
    assert 'data-testid="links-not-kept"' in dealt and links_of(dealt) == []
    mine = client.get("/play/mine/").content.decode()
    assert f'data-testid="your-game-{game.pk}"' in mine and links_of(mine) == []


def test_the_api_still_answers_the_tokens_and_the_dealer_sees_them_again(alice: User) -> None:
    api = APIClient()
    api.force_login(alice)
    pack = make_pack(alice)
    body = {"pack": pack.pk, "seats": [{"kind": "person"}, {"kind": "person"}], "seed": 1}
    answer = api.post("/api/games/", body, format="json")
    assert answer.status_code == 201
    game = answer.json()
    tokens = [seat["token"] for seat in game["seats"]]
    digests = Seat.objects.filter(game_id=game["id"]).order_by("index")
    assert list(digests.values_list("token_sha256", flat=True)) == [
        hashlib.sha256(t.encode()).hexdigest() for t in tokens
    ]
    dealt = logged_in(alice).get(f"/play/{game['id']}/dealt/").content.decode()
    assert [token for _, _, token in LINK.findall(dealt)] == tokens


# Your games


def test_your_games_lists_the_games_you_dealt_and_the_seats_you_opened(
    alice: User, bob: User
) -> None:
    pack = make_pack(alice)
    client = logged_in(alice)
    dealt = deal_pack(client, pack, ["person", "bot"], seed=1)
    bobs = game_create(actor=bob, pack=pack, seats=["person", "person"], seed=2)
    others = game_create(actor=bob, pack=pack, seats=["person", "bot"], seed=3)
    anonymous = game_create(actor=None, pack=pack, seats=["person", "bot"], seed=4)
    # Bob sends Alice the link of his game's second seat; she opens it.
    opened = f"/play/{bobs.game.pk}/?seat={bobs.tokens[1]}"
    assert client.get(opened).status_code == 200
    assert client.get(opened).status_code == 200  # a second visit: still one row
    assert OpenedSeat.objects.filter(user=alice).count() == 1

    page = client.get("/play/mine/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    html = page.content.decode()
    listed = [int(pk) for pk in re.findall(r'data-testid="your-game-(\d+)"', html)]
    assert listed == [bobs.game.pk, dealt.pk]  # the latest played first; not the others'
    assert others.game.pk not in listed and anonymous.game.pk not in listed
    # Her dealt game: its person seat's link and its dealt page; Bob's: her own seat only.
    assert f'href="/play/{dealt.pk}/dealt/"' in html
    assert f'href="/play/{bobs.game.pk}/dealt/"' not in html
    games = {int(pk): link for link, pk, _ in LINK.findall(html)}
    assert games[bobs.game.pk] == opened
    assert bobs.tokens[0] not in html
    with_links = [int(pk) for _, pk, _ in LINK.findall(html)]
    assert sorted(with_links) == sorted([dealt.pk, bobs.game.pk])
    # Alice's seat of Bob's game waits for P1 (Bob), and she has not opened her own P1 yet.
    assert html.count("Waiting for P1") == 2

    # On another device, logged in: the same games (her deals and her opened seats are hers).
    elsewhere = logged_in(alice).get("/play/mine/").content.decode()
    assert [int(pk) for pk in re.findall(r'data-testid="your-game-(\d+)"', elsewhere)] == listed
    # Bob sees his own games, not Alice's; an anonymous browser sees none.
    bob_page = logged_in(bob).get("/play/mine/").content.decode()
    bob_listed = {int(pk) for pk in re.findall(r'data-testid="your-game-(\d+)"', bob_page)}
    assert bob_listed == {bobs.game.pk, others.game.pk}
    assert 'data-testid="no-games"' in Client().get("/play/mine/").content.decode()


def test_an_anonymous_browser_lists_what_it_dealt_and_opened(
    alice: User, core_catalog: None
) -> None:
    browser = Client()
    post_deal(browser, {"sets": ["munchkin-core"], "seat_0": "person", "seat_1": "bot"})
    dealt = Game.objects.get()
    hers = game_create(actor=alice, pack=make_pack(alice), seats=["person", "person"], seed=9)
    assert browser.get(f"/play/{hers.game.pk}/?seat={hers.tokens[0]}").status_code == 200
    html = browser.get("/play/mine/").content.decode()
    listed = {int(pk) for pk in re.findall(r'data-testid="your-game-(\d+)"', html)}
    assert listed == {dealt.pk, hers.game.pk}
    assert f"/play/{hers.game.pk}/?seat={hers.tokens[0]}" in html
    assert hers.tokens[1] not in html
    # A seat opened anonymously is in the session only: nothing is stored for anyone.
    assert OpenedSeat.objects.count() == 0
    assert 'data-testid="no-games"' in Client().get("/play/mine/").content.decode()


def test_the_status_says_whose_move_it_is_the_turn_and_who_won(alice: User) -> None:
    client = logged_in(alice)
    pack = make_pack(alice)
    game = deal_pack(client, pack, ["person", "person"], seed=6)
    links = links_of(client.get(f"/play/{game.pk}/dealt/").content.decode())
    client.get(links[1])  # she opened P2 only: the game waits for P1
    assert "Waiting for P1</span>, turn 1." in client.get("/play/mine/").content.decode()
    client.get(links[0])  # now P1 too: it is her move
    assert "<strong>Your move</strong>" in client.get("/play/mine/").content.decode()

    # A whole game, each person playing as the bots do (the engine's log stored as the game's):
    # the list names the winner the engine gives.
    table = game_table(game=Game.objects.get(pk=game.pk))
    for _ in range(5000):
        if table.over:
            break
        seat = seats_to_move(table)[0]
        table = run_bots(apply_move(table, seat, bot_move(table, seat)))
    Game.objects.filter(pk=game.pk).update(
        moves=[[seat, move] for seat, move in table.log], finished=True, winners=table.winners
    )
    finished = Game.objects.get(pk=game.pk)
    table = game_table(game=finished)
    assert finished.finished and table.winners
    winners = " and ".join(table.game.players[i].name for i in table.winners)
    html = client.get("/play/mine/").content.decode()
    assert f"{winners} won</span>, turn {table.game.turn_number}." in html
    assert "Your move" not in html


def test_expired_games_are_left_out(alice: User, bob: User) -> None:
    pack = make_pack(alice)
    client = logged_in(alice)
    kept = deal_pack(client, pack, ["person", "bot"], seed=1)
    expired = deal_pack(client, pack, ["person", "bot"], seed=2)
    opened = game_create(actor=None, pack=pack, seats=["person", "bot"], seed=3)
    assert client.get(f"/play/{opened.game.pk}/?seat={opened.tokens[0]}").status_code == 200
    idle(expired, 90.5)  # dealt while logged in: kept 90 days
    idle(opened.game, 7.5)  # dealt anonymously: kept 7 days
    idle(kept, 89)
    html = client.get("/play/mine/").content.decode()
    listed = [int(pk) for pk in re.findall(r'data-testid="your-game-(\d+)"', html)]
    assert listed == [kept.pk]


def test_the_list_costs_the_same_queries_for_one_game_or_many_and_is_capped(
    alice: User,
) -> None:
    pack = make_pack(alice)
    created = [game_create(actor=alice, pack=pack, seats=["person", "bot"], seed=1)]
    OpenedSeat.objects.create(user=alice, seat=created[0].game.seats.get(index=0))

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            your_games(user=alice, dealt=[], opened=[])
        return len(captured)

    one = queries()
    for seed in range(2, 6):
        made = game_create(actor=alice, pack=pack, seats=["person", "bot"], seed=seed)
        OpenedSeat.objects.create(user=alice, seat=made.game.seats.get(index=0))
        created.append(made)
    assert queries() == one
    newest = your_games(user=alice, dealt=[], opened=[], limit=3)
    assert [g.game.pk for g in newest] == [c.game.pk for c in reversed(created)][:3]


def test_the_session_keeps_the_latest_deals_only() -> None:
    client = Client()
    client.get("/play/mine/")  # a session of its own
    session = client.session
    for game_id in range(1, KEEP + 11):
        remember_dealt(session, game_id=game_id)
    remember_dealt(session, game_id=20)  # dealt again: moves to the front, not twice
    ids = dealt_ids(session)
    assert ids[0] == 20 and len(ids) == KEEP and len(set(ids)) == KEEP
    assert 1 not in ids and KEEP + 10 in ids


def test_your_games_is_linked_from_the_header_and_your_own_page(alice: User, bob: User) -> None:
    client = logged_in(alice)
    assert 'href="/play/mine/">Your games</a>' in Client().get("/").content.decode()
    own = client.get("/accounts/alice/").content.decode()
    assert own.count('href="/play/mine/"') == 2  # the header's and the page's own
    assert logged_in(bob).get("/accounts/alice/").content.decode().count('"/play/mine/"') == 1
