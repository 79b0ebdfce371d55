"""The table's limits in the browser (issue 34): a game whose log is full says so in place of
its buttons, an expired game's link answers its own page (410), and once pruned the link's
page says what became of the game (404); on a 360 px phone and a desktop, each page fitting
the screen and passing axe-core."""

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from play.models import Game
from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier
from tests.e2e.test_play import SIZES, fits_and_passes_axe

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server: LiveServer, settings: Any) -> str:
    settings.PLAY_MAX_LOG_MOVES = 1
    settings.PLAY_ANONYMOUS_GAME_DAYS = 7
    settings.PLAY_GAME_DAYS = 90
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_a_full_log_then_an_expired_then_a_deleted_game(page: Page, site: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(site + "/play/new/")
    page.get_by_label("Munchkin", exact=True).check()
    page.get_by_label("Seed").fill("7")
    page.get_by_role("button", name="Deal").click()
    page.get_by_test_id("seat-link-0").click()
    table_url = page.url

    page.get_by_test_id("moves").get_by_role("button", name="Kick open the door").click()
    full = page.get_by_test_id("log-full")
    expect(full).to_have_text(
        "This game has reached 1 move; start a new one. Deal a new game "
        "(undo and restart still work here)."
    )
    expect(page.get_by_test_id("moves")).to_have_count(0)
    expect(page.get_by_test_id("status")).to_contain_text("No more moves: the log is full.")
    fits_and_passes_axe(page)
    expect(full.get_by_role("link", name="Deal a new game")).to_have_attribute("href", "/play/new/")

    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(days=8))
    answer = page.goto(table_url)
    assert answer is not None and answer.status == 410
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Game {game.pk} has expired")
    fits_and_passes_axe(page)

    out = io.StringIO()
    call_command("prune_games", stdout=out)
    assert out.getvalue().startswith("Deleted 1 game "), out.getvalue()
    answer = page.goto(table_url)
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("No game here")
    expect(page.get_by_test_id("no-game")).to_contain_text(
        "a game is deleted after 7 days without a move"
    )
    fits_and_passes_axe(page)
