"""A person answers a bot's fight in the browser (issue 37): before the bot's fight resolves
the page offers the person's monster enhancer and Pass; the enhancer turns the fight. With a
time to answer, the page counts down and, at zero, the fight goes on by itself.

The game is dealt and played up to the bot's fight through the API from this process (the
live server shares its database), by the seat's plain moves (tests/play/test_api_windows.py);
the fight found is whatever the deal gives, not assumed."""

import io
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from play.models import Game
from tests.conftest import CORE_SET
from tests.e2e.test_play import SIZES, fits_and_passes_axe
from tests.play.test_api import state
from tests.play.test_api_windows import to_a_window_with_an_enhancer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/play-windows")


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


def deal(api: APIClient, seconds: int = 0) -> dict[str, Any]:
    body = {
        "sets": ["munchkin-core"],
        "seats": [{"kind": "bot"}, {"kind": "person"}],
        "seed": 1,
        "answer_seconds": seconds,
    }
    answer = api.post("/api/games/", body, format="json")
    assert answer.status_code == 201, answer.content
    game: dict[str, Any] = answer.json()
    return game


def seat_page(site: str, game: dict[str, Any]) -> str:
    return f"{site}/play/{game['id']}/?seat={game['seats'][1]['token']}"


def test_a_person_plays_an_enhancer_into_a_bot_s_fight_and_turns_it(page: Page, site: str) -> None:
    api = APIClient()
    game = deal(api)
    seen, card = to_a_window_with_an_enhancer(api, game)
    name = next(c["name"] for c in seen["hand"] if c["id"] == card["play"])
    monster = card["on"]
    level = seen["players"][0]["level"]

    page.set_viewport_size(SIZES["phone"])
    page.goto(seat_page(site, game))
    window = page.get_by_test_id("window")
    expect(window).to_contain_text("is ready to fight")
    expect(page.get_by_test_id("status")).to_contain_text("play a card or pass")
    expect(page.get_by_role("button", name="Pass", exact=False).first).to_be_visible()
    fits_and_passes_axe(page)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "window-phone.png"), full_page=True)

    page.get_by_role("button", name=f"Play {name} on {monster}").first.click()
    page.wait_for_load_state()
    after = state(api, game, 1)
    # The card is on the monster and the bot, who fought, has not had its kill.
    assert card["play"] not in {c["id"] for c in after["hand"]}
    assert after["players"][0]["level"] <= level
    expect(page.get_by_test_id("log")).to_contain_text(name)
    fits_and_passes_axe(page)


def test_with_a_time_to_answer_the_page_counts_down_and_the_fight_goes_on(
    page: Page, site: str
) -> None:
    api = APIClient()
    game = deal(api, seconds=15)
    seen, _ = to_a_window_with_an_enhancer(api, game)
    level = seen["players"][0]["level"]
    page.set_viewport_size(SIZES["phone"])
    page.goto(seat_page(site, game))
    countdown = page.get_by_test_id("seconds-left")
    expect(countdown).to_be_visible()
    assert 0 < int(countdown.inner_text()) <= 15
    fits_and_passes_axe(page)

    # The time runs out on the server's clock: the last move was 16 seconds ago.
    stored = Game.objects.get(pk=game["id"])
    Game.objects.filter(pk=stored.pk).update(updated_at=stored.updated_at - timedelta(seconds=16))
    page.reload()
    expect(page.get_by_test_id("window")).to_have_count(0, timeout=15000)
    after = state(api, game, 1)
    assert after["window"] is None
    assert after["players"][0]["level"] > level  # no one answered: the bot killed it
