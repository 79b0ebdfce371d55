"""Game ids no row can have (issue 34, item 6): every play address answers 404, never 500.

`<int:...>` took any number of digits; with a seat token the id reached the database's
integer and overflowed it (500). The paths now take only 1 to 2^63 - 1 (play/converters.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from catalog.models import MAX_ROW_ID
from play.services import game_create
from tests.play.test_api import make_pack

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999"  # past 2^64
IDS = [HUGE, str(2**64), str(2**63), str(MAX_ROW_ID), "0", "1" + "0" * 40]


def json_404(answer: Any) -> None:
    assert answer.status_code == 404, answer.content[:300]
    body = answer.json()
    assert body["object"] == "error" and body["status"] == 404


@pytest.fixture
def api() -> APIClient:
    return APIClient(raise_request_exception=False)


@pytest.fixture
def browser() -> Client:
    return Client(raise_request_exception=False)


@pytest.fixture
def token(alice: User) -> str:
    """A real seat's token (of another game): a token that opens a seat must not make the
    lookup reach the database with the huge id either."""
    created = game_create(actor=alice, pack=make_pack(alice), seats=["person", "bot"], seed=1)
    return created.tokens[0]


@pytest.mark.parametrize("game_id", IDS)
@pytest.mark.parametrize("seat", ["", "x", "real"])
@pytest.mark.parametrize("tail", ["", "moves/", "log/"])
def test_api_get_of_a_game_no_row_can_be_is_404(
    api: APIClient, token: str, game_id: str, seat: str, tail: str
) -> None:
    query = {"seat": token if seat == "real" else seat} if seat else {}
    json_404(api.get(f"/api/games/{game_id}/{tail}", query))


@pytest.mark.parametrize("game_id", IDS)
@pytest.mark.parametrize("tail", ["moves/", "undo/", "restart/", "scenario/"])
@pytest.mark.parametrize("seat", ["x", "real"])
def test_api_post_to_a_game_no_row_can_be_is_404(
    api: APIClient, alice: User, token: str, game_id: str, tail: str, seat: str
) -> None:
    api.force_login(alice)
    body: dict[str, Any] = {"seat": token if seat == "real" else seat}
    if tail == "moves/":
        body["move"] = {"kick_door": True}
    if tail == "scenario/":
        body["card"] = 1
    json_404(api.post(f"/api/games/{game_id}/{tail}", body, format="json"))


@pytest.mark.parametrize("game_id", IDS)
@pytest.mark.parametrize("seat", ["", "x", "real"])
def test_the_table_page_of_a_game_no_row_can_be_is_404(
    browser: Client, token: str, game_id: str, seat: str
) -> None:
    query = {"seat": token if seat == "real" else seat} if seat else {}
    answer = browser.get(f"/play/{game_id}/", query)
    assert answer.status_code == 404, answer.content[:300]
    assert answer["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("game_id", IDS)
@pytest.mark.parametrize("tail", ["move/", "undo/", "restart/", "scenario/"])
@pytest.mark.parametrize("seat", ["x", "real"])
def test_the_table_buttons_of_a_game_no_row_can_be_are_404(
    browser: Client, token: str, game_id: str, tail: str, seat: str
) -> None:
    data = {"seat": token if seat == "real" else seat, "move": '{"kick_door": true}'}
    answer = browser.post(f"/play/{game_id}/{tail}", data)
    assert answer.status_code == 404, answer.content[:300]


def test_the_largest_id_a_row_can_have_still_reaches_the_view(
    browser: Client, api: APIClient, token: str
) -> None:
    """2^63 - 1 is a possible id: the view answers it (the play page's own "No game here",
    the API's "no game N"), where 2^63 never reaches a view."""
    page = browser.get(f"/play/{MAX_ROW_ID}/", {"seat": token})
    assert page.status_code == 404 and "No game here" in page.content.decode()
    answer = api.get(f"/api/games/{MAX_ROW_ID}/", {"seat": token})
    json_404(answer)
    assert answer.json()["errors"][0]["message"] == f"no game {MAX_ROW_ID}"
    over = browser.get(f"/play/{2**63}/", {"seat": token})
    assert over.status_code == 404 and "No game here" not in over.content.decode()
