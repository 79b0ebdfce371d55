"""The table's pages without a browser: dealing, a seat's page, its buttons, refusals shown."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from play.models import Game
from tests.play.test_api import make_pack

pytestmark = pytest.mark.django_db


def deal(client: Client, pack_id: int, seats: list[str], seed: int = 1) -> list[str]:
    """Deal through /play/new/ (which redirects to the dealt page); the seat links of the
    dealt page, in seat order."""
    data: dict[str, Any] = {"pack": pack_id, "seed": seed}
    data |= {f"seat_{i}": kind for i, kind in enumerate(seats)}
    answer = client.post("/play/new/", data, follow=True)
    assert answer.status_code == 200, answer.content.decode()[:2000]
    return re.findall(r'href="(/play/\d+/\?seat=[^"]+)"', answer.content.decode())


def buttons(html: str) -> list[tuple[Any, str]]:
    """(move JSON, button text) of each move form on a page."""
    forms = re.findall(
        r'name="move" value="([^"]+)">\s*<button type="submit"[^>]*>([^<]+)</button>', html
    )
    return [(json.loads(m.replace("&quot;", '"')), text) for m, text in forms]


def test_deal_a_game_and_play_its_first_moves_by_the_buttons(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    pack = make_pack(alice)
    page = client.get("/play/new/")
    assert page.status_code == 200 and pack.name in page.content.decode()
    links = deal(client, pack.pk, ["person", "bot", "person"], seed=3)
    assert len(links) == 2  # the bot's seat has no link
    game = Game.objects.get()
    assert [s.kind for s in game.seats.all()] == ["person", "bot", "person"]

    player = Client()  # the link alone opens the seat
    html = player.get(links[0]).content.decode()
    assert "Your hand (8)" in html  # the rulebook's deal: four Door and four Treasure cards
    assert ({"kick_door": True}, "Kick open the door") in buttons(html)
    other = player.get(links[1]).content.decode()
    assert "Waiting for P1." in other
    # Another seat may curse anyone at any time, but never kick P1's door.
    assert all("kick_door" not in move for move, _ in buttons(other))

    token = links[0].split("seat=")[1]
    answer = player.post(
        f"/play/{game.pk}/move/", {"seat": token, "move": json.dumps({"kick_door": True})}
    )
    assert answer.status_code == 302 and answer["Location"] == links[0]
    html = player.get(links[0]).content.decode()
    assert "P1 kicks open the door" in html
    assert Game.objects.get().moves[0] == [0, {"kick_door": True}]


def test_a_refused_button_shows_the_engine_s_reason_and_changes_nothing(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    pack = make_pack(alice)
    links = deal(client, pack.pk, ["person", "person"], seed=4)
    game = Game.objects.get()
    second = links[1].split("seat=")[1]
    for move, reason in (
        (json.dumps({"kick_door": True}), "only on your own turn, and it is P1&#x27;s turn"),
        ("not json", "the move is not a JSON object"),
        ("x" * 3000, "a move is at most 2000 characters"),
        (json.dumps({"fly": True}), "a move names exactly one of"),
    ):
        answer = client.post(f"/play/{game.pk}/move/", {"seat": second, "move": move}, follow=True)
        assert reason in answer.content.decode(), move[:40]
    assert Game.objects.get().moves == []


def test_a_wrong_link_opens_no_seat(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    links = deal(client, make_pack(alice).pk, ["person", "bot"], seed=5)
    game = Game.objects.get()
    assert client.get(f"/play/{game.pk}/?seat=guess").status_code == 404
    assert client.get(f"/play/{game.pk + 1}/" + links[0][links[0].index("?") :]).status_code == 404
    move = {"seat": "guess", "move": json.dumps({"kick_door": True})}
    assert client.post(f"/play/{game.pk}/move/", move).status_code == 404


def test_a_deal_needs_cards_and_two_to_six_seats(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    pack = make_pack(alice)
    answer = client.post("/play/new/", {"pack": pack.pk, "seat_0": "person"})
    assert "A game has 2 to 6 seats; 1 are taken." in answer.content.decode()
    answer = client.post("/play/new/", {"pack": pack.pk, "seat_0": "bot", "seat_1": "bot"})
    assert "a game needs at least one person" in answer.content.decode()
    answer = client.post("/play/new/", {"seat_0": "person", "seat_1": "bot"})
    assert "Choose sets or one of your packs (not both)." in answer.content.decode()
    assert Game.objects.count() == 0


def test_a_pack_page_leads_to_a_table_with_the_pack_chosen(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    pack = make_pack(alice)
    page = client.get(f"/packs/{pack.pk}/").content.decode()
    assert f'href="/play/new/?pack={pack.pk}"' in page
    deal = client.get(f"/play/new/?pack={pack.pk}").content.decode()
    assert f'<option value="{pack.pk}" selected>' in deal
    # A pack id not among the requester's own chooses nothing.
    other = client.get("/play/new/?pack=999999").content.decode()
    assert '<option value="" selected>None</option>' in other


def test_hot_seat_covers_the_table_between_people(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    pack = make_pack(alice)
    data = {"pack": pack.pk, "seed": 6, "hot_seat": "on"}
    data |= {"seat_0": "person", "seat_1": "person", "seat_2": "bot"}
    dealt = client.post("/play/new/", data, follow=True).content.decode()
    links = re.findall(r'href="(/play/\d+/\?seat=[^"]+)" class="button"', dealt)
    assert len(links) == 1 and "seat-link-" not in dealt  # one link: the device's
    game = Game.objects.get()
    assert game.hot_seat
    device = Client()
    token = links[0].split("seat=")[1]
    cover = device.get(links[0]).content.decode()
    assert "Pass the device to P1" in cover and "Your hand" not in cover
    html = device.get(links[0] + "&reveal=0").content.decode()
    assert "Game " in html and "P1 (you)" in html and "Your hand (8)" in html
    first_hand = re.search(r'data-testid="hand">(.*?)</section>', html, re.S)
    # P1 plays on until the turn passes: the answer is then the cover for P2.
    for _ in range(100):
        options = buttons(html)
        steps = ("Fight", "Run away", "Loot the room", "End the turn", "Kick open the door")
        wanted = sorted((steps.index(t), i) for i, (m, t) in enumerate(options) if t in steps)
        chosen = options[wanted[0][1]][0] if wanted else options[-1][0]
        answer = device.post(
            f"/play/{game.pk}/move/",
            {"seat": token, "as": "0", "move": json.dumps(chosen)},
            follow=True,
        )
        html = answer.content.decode()
        if "Pass the device to P2" in html:
            break
        assert "P1 (you)" in html, html[:3000]
    assert "Pass the device to P2" in html and "Your hand" not in html
    second = device.get(links[0] + "&reveal=1").content.decode()
    assert "P2 (you)" in second
    second_hand = re.search(r'data-testid="hand">(.*?)</section>', second, re.S)
    assert first_hand and second_hand and first_hand.group(1) != second_hand.group(1)
    # Out of turn: P1 takes the device back behind the cover, by the link for P1.
    assert "Pass the device to P1" in device.get(links[0] + "&as=0").content.decode()
    # A bot's seat or a seat that does not exist is not played from the device.
    before = list(Game.objects.get().moves)
    for bad in ("2", "9", "x"):
        move = {"seat": token, "as": bad, "move": json.dumps({"kick_door": True})}
        page = device.post(f"/play/{game.pk}/move/", move, follow=True).content.decode()
        assert f"Refused: as: &#x27;{bad}&#x27; is not a person seat of this game." in page
    assert Game.objects.get().moves == before


def test_hot_seat_needs_two_people_and_a_seat_link_plays_only_its_seat(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    pack = make_pack(alice)
    data = {"pack": pack.pk, "seat_0": "person", "seat_1": "bot", "hot_seat": "on"}
    answer = client.post("/play/new/", data).content.decode()
    assert "hot-seat mode passes one device between people: seat two or more" in answer
    assert Game.objects.count() == 0
    links = deal(client, pack.pk, ["person", "person"], seed=2)
    second = links[1].split("seat=")[1]
    game = Game.objects.get()
    # Without hot seat, `as` changes nothing: the link plays its own seat only.
    move = {"seat": second, "as": "0", "move": json.dumps({"kick_door": True})}
    answer = client.post(f"/play/{game.pk}/move/", move, follow=True).content.decode()
    assert "only on your own turn, and it is P1&#x27;s turn" in answer
    assert "P2 (you)" in client.get(links[1] + "&as=0").content.decode()
