"""The table page reads at a glance (issue 37), without a browser: the fight before the
moves, the moves grouped with words that cannot be confused, the forms that compose one move
(ask for help, sell, an ability's discards) and the strict checks of their fields, a request
for help as the one asked reads it, a question and a window to play into a fight, the whole
log with its turns and card names linked, the regions alone for the script, a designer's own
cards marked "Yours"."""

from __future__ import annotations

import html
import json
import re
from functools import cache
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.template.loader import render_to_string
from django.test import Client
from rest_framework.test import APIClient

from catalog.models import Card
from catalog.services import card_create, set_create
from packs.models import Pack
from play import selectors
from play.models import Game
from play.moves_display import MoveButton, MoveForm, group_moves
from tests.factories import monster_document
from tests.play.test_api import GAMES, core_pack_document, deal, make_pack, move
from validator.engine import CardBase, apply_move, legal_moves, new_table, parse_pack

pytestmark = pytest.mark.django_db


@cache
def pack_cards() -> tuple[tuple[str, CardBase], ...]:
    """The cards the API deals from `make_pack`'s pack, to find seeds by the engine."""
    return tuple(parse_pack(core_pack_document(), source="test").game_cards())


def first_seed(wanted: Any, seats: int = 2) -> int:
    """The first seed whose deal `wanted(table)` accepts (the engine's own legal moves say)."""
    for seed in range(300):
        if wanted(new_table(pack_cards(), seats=["person"] * seats, seed=seed)):
            return seed
    raise AssertionError("no seed in 0..299 deals that")


def a_fight(table: Any) -> bool:
    return apply_move(table, 0, {"kick_door": True}).game.combat is not None


def link(game: dict[str, Any], seat: int) -> str:
    return f"/play/{game['id']}/?seat={game['seats'][seat]['token']}"


def post(client: Client, game: dict[str, Any], seat: int, fields: dict[str, Any]) -> str:
    """A form of the table posted by `seat`; the page it leads back to."""
    data = {"seat": game["seats"][seat]["token"], **fields}
    answer = client.post(f"/play/{game['id']}/move/", data, follow=True)
    assert answer.status_code == 200
    return html.unescape(answer.content.decode())


def stored(game: dict[str, Any]) -> list[Any]:
    return list(Game.objects.get(pk=game["id"]).moves)


@pytest.fixture
def api(alice: User) -> APIClient:
    client = APIClient()
    client.force_login(alice)
    return client


@pytest.fixture
def pack(alice: User) -> Pack:
    return make_pack(alice)


@pytest.fixture
def fight(api: APIClient, pack: Pack, core_catalog: None) -> dict[str, Any]:
    """A two-person game in which P1 has kicked open the door on a monster."""
    game = deal(api, pack, ["person", "person"], seed=first_seed(a_fight))
    assert move(api, game, 0, {"kick_door": True}).status_code == 200
    return game


def region(page: str, name: str) -> str:
    found = re.search(rf'data-region="{name}"(.*?)</(section|div)>\s*\n', page, re.S)
    assert found, name
    return found.group(1)


def test_the_fight_comes_first_with_both_strengths(fight: dict[str, Any]) -> None:
    page = html.unescape(Client().get(link(fight, 0)).content.decode())
    door = re.search(r'P1 kicks open the door: <a href="[^"]+">([^<]+)</a>', page)
    assert door  # the monster the log names
    card = Card.objects.get(card_set__code="munchkin-core", name=door.group(1))
    assert page.index('data-testid="combat"') < page.index('data-testid="moves"')
    assert page.index('data-testid="moves"') < page.index('data-testid="hand"')
    # A Level 1 munchkin with nothing in play against the monster's printed Level.
    assert re.search(r'data-testid="side-strength">1<', page)
    assert re.search(rf'data-testid="monster-strength">{card.level}<', page)
    assert f"Your move: you are fighting {card.name}." in page
    assert f'href="/sets/munchkin-core/{card.slug}/"' in region(page, "fight")
    other = html.unescape(Client().get(link(fight, 1)).content.decode())
    assert f"Waiting for P1: P1 is fighting {card.name}." in other
    # The fighter's own moves come first, under "Fight": Fight or Run away, and the form.
    headings = re.findall(r"<h3>([^<]+)</h3>", region(page, "moves"))
    assert headings[0] == "Fight" and set(headings) <= {
        "Fight",
        "Play on this fight",
        "Cards",
        "Careful",
        "Your turn",
    }
    assert 'data-testid="form-ask"' in page and "Undo the last move" in page


def test_the_moves_grouped_in_words_that_cannot_be_confused() -> None:
    state: dict[str, Any] = {
        "players": [
            {"name": "P1", "equipped": [], "carried": []},
            {"name": "P2", "equipped": [], "carried": []},
        ],
        "hand": [
            {"id": 5, "name": "Magic Missile", "kind": "one_shot", "set": "s"},
            {"id": 6, "name": "Change Sex", "kind": "curse", "set": "s"},
            {"id": 7, "name": "Ancient", "kind": "monster_enhancer", "set": "s"},
        ],
        "combat": {"fighter": 1, "monsters": [{"card": {"id": 9, "name": "Bathtub Duckie"}}]},
    }
    moves = [
        {"play": 5},
        {"play": 5, "on": "Bathtub Duckie"},
        {"play": 6, "on": "P1"},
        {"play": 6, "on": "P2"},
        {"play": 7, "on": "Bathtub Duckie"},
        {"discard_card": 6},
    ]
    groups = group_moves([{"move": m, "text": "engine words"} for m in moves], state, 0)
    labels = {g.title: [i.label for i in g.items if isinstance(i, MoveButton)] for g in groups}
    assert labels == {
        "Play on this fight": [
            "Play Magic Missile (on the fight, for P2)",
            "Play Magic Missile on Bathtub Duckie",
            "Play Ancient on Bathtub Duckie",
        ],
        "Cards": ["Curse P2 with Change Sex"],
        "Careful": ["Curse yourself with Change Sex", "Discard Change Sex from play"],
    }
    assert [g.title for g in groups] == ["Play on this fight", "Cards", "Careful"]


def test_the_fighter_asks_for_help_by_one_form(api: APIClient, fight: dict[str, Any]) -> None:
    offered = json.dumps({"ask_for_help": "P2"})
    page = post(Client(), fight, 0, {"move": offered, "treasures": "1"})
    assert stored(fight)[-1] == [0, {"ask_for_help": "P2", "treasures": 1}]
    assert "P1 asked P2 for help, offering 1 Treasure; waiting for the answer." in page
    # The one asked reads who asks, against what, for what, and the strengths with them.
    asked = html.unescape(Client().get(link(fight, 1)).content.decode())
    monster = re.search(r"asks you for help</strong> against (.+?), for 1 Treasure\.", asked)
    assert monster, region(asked, "fight")
    level = Card.objects.get(card_set__code="munchkin-core", name=monster.group(1)).level
    # Two Level 1 munchkins with nothing in play: 2 together, 1 alone.
    assert f"With you: <strong>2</strong> against {level}. Without you: 1 against {level}." in (
        asked
    )
    assert f"Your move: P1 asks you for help against {monster.group(1)}." in asked
    answer = region(asked, "moves")
    assert "<h3>Answer</h3>" in answer
    assert re.findall(r'<button type="submit"[^>]*>([^<]+)</button>', answer) == [
        "Help P1",
        "Refuse to help",
    ]


def test_selling_picks_the_items_ticked(api: APIClient, pack: Pack, core_catalog: None) -> None:
    seed = first_seed(lambda table: any("sell" in m for m in legal_moves(table, 0)))
    table = new_table(pack_cards(), seats=["person", "person"], seed=seed)
    sale = next(m["sell"] for m in legal_moves(table, 0) if "sell" in m)
    game = deal(api, pack, ["person", "person"], seed=seed)
    page = html.unescape(Client().get(link(game, 0)).content.decode())
    form = re.search(r'data-testid="form-sell"(.*?)</form>', page, re.S)
    assert form, region(page, "moves")
    boxes = re.findall(r'name="pick" value="(\d+)"(?: data-gold="(\d+)")?', form.group(1))
    token = game["seats"][0]["token"]
    hand = api.get(f"{GAMES}{game['id']}/", {"seat": token}).json()["hand"]
    # Every card of the hand worth Gold (the catalog says so) has its box, with its Gold.
    worth = {
        card["id"]: Card.objects.get(card_set__code="munchkin-core", name=card["name"]).gold
        for card in hand
    }
    assert {int(uid) for uid, _ in boxes} == {uid for uid, gold in worth.items() if gold}
    assert all(int(gold) == worth[int(uid)] for uid, gold in boxes)
    picks = list(reversed(sale))  # the items the rules would sell, ticked in another order
    fields = {"move": json.dumps({"sell": []}), "pick_into": "sell", "pick": picks}
    post(Client(), game, 0, fields)
    assert stored(game)[-1] == [0, {"sell": picks}]


def test_an_ability_that_discards_picks_its_cards(
    api: APIClient, pack: Pack, core_catalog: None
) -> None:
    def playable(table: Any) -> dict[str, Any] | None:
        for made in legal_moves(table, 0):
            if set(made) == {"play"}:
                after = apply_move(table, 0, made)
                if any("use" in m and m.get("discard") for m in legal_moves(after, 0)):
                    return made
        return None

    seed = first_seed(lambda table: playable(table) is not None)
    table = new_table(pack_cards(), seats=["person", "person"], seed=seed)
    made = playable(table)
    assert made is not None
    after = legal_moves(apply_move(table, 0, made), 0)
    paid = next(m["discard"] for m in after if "use" in m and m.get("discard"))
    game = deal(api, pack, ["person", "person"], seed=seed)
    assert move(api, game, 0, made).status_code == 200
    page = Client().get(link(game, 0)).content.decode()
    form = re.search(r'data-testid="form-ability"(.*?)</form>', page, re.S)
    assert form, region(page, "moves")
    value = re.findall(r'name="move" value="([^"]+)"', form.group(1))[0]
    template = json.loads(html.unescape(value))
    assert template["use"] == made["play"] and template["discard"] == []
    boxes = [int(uid) for uid in re.findall(r'name="pick" value="(\d+)"', form.group(1))]
    hand = api.get(f"{GAMES}{game['id']}/", {"seat": game["seats"][0]["token"]}).json()["hand"]
    assert sorted(boxes) == sorted(card["id"] for card in hand)
    # The cards the rules would take, ticked: the move made is the template with them.
    fields = {"move": json.dumps(template), "pick_into": "discard", "pick": paid}
    post(Client(), game, 0, fields)
    assert stored(game)[-1] == [0, {**template, "discard": paid}]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"move": ""}, "choose a move first"),
        ({"move": '{"sell": []}', "pick_into": "hand", "pick": ["1"]}, "pick_into: one of"),
        ({"move": '{"sell": []}', "pick_into": "sell", "pick": ["1x"]}, "pick: a card's number"),
        ({"move": '{"sell": []}', "pick_into": "sell", "pick": ["1234567890"]}, "a card's number"),
        ({"move": '{"sell": []}', "pick_into": "sell", "pick": ["3", "3"]}, "picked twice"),
        ({"move": '{"sell": []}', "pick_into": "sell", "pick": ["1"] * 61}, "at most 60 cards"),
        ({"move": '{"kick_door": true}', "pick_into": "sell", "pick": ["1"]}, "has no 'sell'"),
        ({"move": '{"sell": []}', "pick": ["1"]}, "names no list to fill"),
        ({"move": '{"ask_for_help": "P2"}', "treasures": "1.5"}, "a whole number of Treasures"),
        ({"move": '{"ask_for_help": "P2"}', "treasures": "21"}, "from 0 to 20"),
        ({"move": '{"ask_for_help": "P2"}', "treasures": "-1"}, "from 0 to 20"),
        ({"move": '{"kick_door": true}', "treasures": "1"}, "or an offer of help"),
        ({"move": '{"sell": []}', "pick_into": "sell"}, "Refused: sell"),
    ],
)
def test_a_form_s_fields_are_checked_strictly(
    fight: dict[str, Any], fields: dict[str, Any], reason: str
) -> None:
    before = stored(fight)
    page = post(Client(), fight, 0, fields)
    assert reason in page, re.findall(r'class="message[^"]*">([^<]+)<', page)
    assert stored(fight) == before


def test_the_buttons_still_send_their_whole_move(fight: dict[str, Any]) -> None:
    page = Client().get(link(fight, 0)).content.decode()
    resolve = re.search(r'name="move" value="([^"]*resolve[^"]*)"', page)
    assert resolve
    post(Client(), fight, 0, {"move": html.unescape(resolve.group(1))})
    assert stored(fight)[1] == [0, {"resolve": True}]


def test_the_whole_log_with_its_turns_and_card_names_linked(
    api: APIClient, pack: Pack, core_catalog: None
) -> None:
    game = deal(api, pack, ["person", "bot"], seed=first_seed(lambda table: True))
    for _ in range(40):  # the person ends each turn as fast as the rules allow
        listed = api.get(f"{GAMES}{game['id']}/moves/", {"seat": game["seats"][0]["token"]})
        options = [m["move"] for m in listed.json()["moves"]]
        if not options:
            break
        quick = [m for m in options if set(m) & {"resolve", "loot_room", "end_turn", "kick_door"}]
        assert move(api, game, 0, (quick or options)[0]).status_code == 200
    lines = api.get(f"{GAMES}{game['id']}/log/", {"seat": game["seats"][0]["token"]}).json()
    assert len(lines["lines"]) > 30  # more than the last 30 lines of old
    page = html.unescape(Client().get(link(game, 0)).content.decode())
    log = re.search(r'<ol data-testid="log">(.*?)</ol>', page, re.S)
    assert log
    items = re.findall(r"<li( class=\"turn-start\")?>(.*?)</li>", log.group(1), re.S)
    said = [re.sub(r"<[^>]+>", "", text) for start, text in items if not start]
    assert said == lines["lines"]  # every line, oldest first
    turns = [re.sub(r"<[^>]+>", "", text) for start, text in items if start]
    assert turns[:2] == ["Turn 1", "Turn 2"] and len(turns) >= 3
    door = re.search(r"P1 kicks open the door: <a href=\"([^\"]+)\">([^<]+)</a>", log.group(1))
    assert door
    card = Card.objects.get(card_set__code="munchkin-core", name=door.group(2))
    assert door.group(1) == f"/sets/munchkin-core/{card.slug}/"


def test_the_regions_alone_for_the_script(fight: dict[str, Any]) -> None:
    answer = Client().get(link(fight, 0) + "&fragment=1")
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    page = answer.content.decode()
    assert "<html" not in page and "<dialog" not in page
    regions = re.findall(r'data-region="([a-z]+)"', page)
    assert regions == ["status", "fight", "moves", "hand", "players", "log", "decks"]
    full = Client().get(link(fight, 0)).content.decode()
    assert re.findall(r'data-region="([a-z]+)"', full) == regions


def test_players_words_not_the_engine_s_on_the_page(fight: dict[str, Any]) -> None:
    post(Client(), fight, 0, {"move": json.dumps({"ask_for_help": "P2"}), "treasures": "2"})
    for seat in (0, 1):
        page = Client().get(link(fight, seat)).content.decode()
        outside_the_log = re.sub(r'<ol data-testid="log">.*?</ol>', "", page, flags=re.S)
        assert "(s)" not in outside_the_log


def test_a_question_and_a_window_are_asked_of_their_seat(
    fight: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_state, real_moves = selectors.game_state, selectors.game_moves
    hand: list[dict[str, Any]] = []

    def with_question(**kwargs: Any) -> dict[str, Any]:
        state = real_state(**kwargs)
        hand[:] = state["hand"] or []
        state["window"] = {"seats": [1], "fighter": 0}
        state["choice"] = {
            "seat": 1,
            "question": "items_to_lose",
            "text": "P2: choose 2 items to lose",
            "count": 2,
            "candidates": hand[:3],
            "options": ["Lose a Level", "Discard your hand"],
            "suggested": [],
        }
        return state

    def with_pass(**kwargs: Any) -> list[dict[str, Any]]:
        return [{"move": {"pass": True}, "text": "Pass"}, *real_moves(**kwargs)]

    monkeypatch.setattr(selectors, "game_state", with_question)
    monkeypatch.setattr(selectors, "game_moves", with_pass)
    raw = Client().get(link(fight, 1)).content.decode()
    page = html.unescape(raw)
    assert "Your move: P2: choose 2 items to lose" in page
    assert "P1 is ready to fight:</strong> play a card into the fight or Pass." in page
    answer = region(page, "moves")
    assert answer.index("<h3>Answer</h3>") < answer.index("Pass: let the fight go on")
    boxes = re.findall(r'name="pick" value="(\d+)"', answer)
    assert boxes == [str(card["id"]) for card in hand[:3]]
    assert 'data-least="2" data-most="2"' in answer and "Pick exactly 2 cards." in answer
    options = re.findall(r'type="radio" name="move" value="([^"]+)"', region(raw, "moves"))
    assert [json.loads(html.unescape(o)) for o in options] == [
        {"choose_option": 0},
        {"choose_option": 1},
    ]
    # The one fighting reads that the others may still play.
    first = html.unescape(Client().get(link(fight, 0)).content.decode())
    assert "P1 is ready to fight; waiting for P2 to play a card or pass." in first


def test_undo_is_not_offered_once_the_game_is_over(
    fight: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "Undo the last move" in Client().get(link(fight, 0)).content.decode()
    real_state = selectors.game_state

    def over(**kwargs: Any) -> dict[str, Any]:
        return {**real_state(**kwargs), "over": True, "winners": [1]}

    monkeypatch.setattr(selectors, "game_state", over)
    page = Client().get(link(fight, 0)).content.decode()
    assert "Undo the last move" not in page and "Restart with the same seed" in page
    assert "The game is over: P2 won." in page


def test_a_designer_s_own_cards_are_marked_yours(alice: User, bob: User) -> None:
    card_set = set_create(owner=alice, code="alice-ogres", name="Ogres", visibility="public")
    card_create(card_set=card_set, actor=alice, document=monster_document("Playtest Ogre"))
    for viewer, mine in ((alice, True), (bob, False), (AnonymousUser(), False)):
        cards = [{"set": "alice-ogres", "name": "Playtest Ogre", "id": 1}]
        selectors.add_faces(cards=cards, viewer=viewer)
        assert cards[0]["mine"] is mine and cards[0]["face"] and cards[0]["url"]
        shown = render_to_string("play/_card.html", {"card": cards[0]})
        assert ("Yours" in shown) is mine
        assert f'href="{cards[0]["url"]}"' in shown
    unseen = [{"set": "nowhere", "name": "Playtest Ogre", "id": 2}]
    selectors.add_faces(cards=unseen, viewer=bob)
    assert unseen[0]["face"] == "" and unseen[0]["mine"] is False
    assert "<a " not in render_to_string("play/_card.html", {"card": unseen[0]})


def test_form_items_are_forms_and_buttons_are_buttons() -> None:
    state: dict[str, Any] = {
        "players": [
            {"name": "P1", "equipped": [{"id": 3, "name": "Sword", "gold": 400}], "carried": []},
            {"name": "P2", "equipped": [], "carried": []},
        ],
        "hand": [{"id": 4, "name": "Boots", "gold": 700}, {"id": 8, "name": "Curse"}],
        "combat": None,
    }
    moves = [
        {"sell": [3, 4]},
        {"give": [3], "to": "P2"},
        {"charity": 4},
        {"charity": 8},
        {"end_turn": True},
    ]
    groups = {g.key: g for g in group_moves([{"move": m, "text": ""} for m in moves], state, 0)}
    sell = groups["turn"].items[0]
    assert isinstance(sell, MoveForm) and sell.name == "sell"
    assert [(o.value, o.label) for o in sell.options] == [
        ("4", "Boots (700 Gold)"),
        ("3", "Sword (400 Gold)"),
    ]
    charity = groups["turn"].items[1]
    assert isinstance(charity, MoveForm) and [json.loads(o.value) for o in charity.options] == [
        {"charity": 4},
        {"charity": 8},
    ]
    assert isinstance(groups["turn"].items[-1], MoveButton)
    give = groups["careful"].items[0]
    assert isinstance(give, MoveForm) and [json.loads(p.value) for p in give.players] == [
        {"give": [], "to": "P2"}
    ]


def test_a_hot_seat_fragment_says_when_the_cover_is_due(
    api: APIClient, pack: Pack, core_catalog: None
) -> None:
    body = {"pack": pack.pk, "seats": [{"kind": "person"}] * 2, "seed": 1, "hot_seat": True}
    game = api.post(GAMES, body, format="json").json()
    shown = Client().get(link(game, 0) + "&reveal=0&fragment=1")
    assert shown.status_code == 200 and 'data-region="hand"' in shown.content.decode()
    # The device shows P2 by `as`, not yet revealed: the script is told to open the cover.
    covered = Client().get(link(game, 0) + "&as=1&fragment=1")
    assert covered.status_code == 204 and covered.content == b""
    assert "Pass the device to P2" in Client().get(link(game, 0) + "&as=1").content.decode()


def test_a_rival_offers_help_on_the_page_and_the_fighter_sees_with_whom_it_wins(
    fight: dict[str, Any],
) -> None:
    other = html.unescape(Client().get(link(fight, 1)).content.decode())
    assert 'data-testid="form-offer"' in region(other, "moves")
    assert "Offer to help P1" in other
    # The form's number fills the offer: 2 Treasures are more than the monster gives.
    refused = post(Client(), fight, 1, {"move": '{"offer_help": 0}', "treasures": "99"})
    assert "a whole number of Treasures from 0 to 20" in refused
    assert not any("offer_help" in m for _, m in stored(fight))
    page = post(Client(), fight, 1, {"move": '{"offer_help": 0}', "treasures": "0"})
    assert "P2 offers to help P1 for 0 Treasures; waiting for the answer." in page
    fighter = html.unescape(Client().get(link(fight, 0)).content.decode())
    panel = region(fighter, "fight")
    assert "P2 offers to help you" in panel
    # Both Level 1 with nothing in play: 2 with P2, 1 alone.
    assert "With P2: <strong>2</strong>" in panel and "Alone: 1 against" in panel
    assert "Accept P2's help (0 Treasures)" in fighter and "Turn down P2's help" in fighter
    post(Client(), fight, 0, {"move": '{"accept_help": true}'})
    assert stored(fight)[-1] == [0, {"accept_help": True}]
    assert "P2 helps" in html.unescape(Client().get(link(fight, 0)).content.decode())
