"""Never lose a table (issue 37, items 6 and 7) in the browser: deal, refresh the dealt page
(nothing is dealt again), leave, and come back to the table through "Your games" in the site's
menu; on a 360 px phone (and a desktop in the slow tier), each page fitting the screen and
passing axe-core."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from play.models import Game
from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier
from tests.e2e.test_play import SIZES, fits_and_passes_axe

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_deal_leave_and_come_back_through_your_games(page: Page, site: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(site + "/play/new/")
    page.get_by_label("Munchkin", exact=True).check()
    page.get_by_label("Seed").fill("7")
    page.get_by_role("button", name="Deal").click()

    game = Game.objects.get()
    page.wait_for_url(f"**/play/{game.pk}/dealt/")
    link = page.get_by_test_id("seat-link-0").get_attribute("href")
    assert link and link.startswith(f"/play/{game.pk}/?seat=")
    fits_and_passes_axe(page)
    page.reload()  # a GET: nothing is dealt again, the same link is shown
    expect(page.get_by_test_id("seat-link-0")).to_have_attribute("href", link)
    assert Game.objects.count() == 1

    page.get_by_test_id("seat-link-0").click()
    expect(page.get_by_role("heading", name="Your hand (8)")).to_be_visible()
    page.goto(site + "/")  # leave the table

    menu = page.get_by_role("button", name="Menu")
    if menu.is_visible():  # the phone's header folds its links behind a button
        menu.click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Your games").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your games")
    entry = page.get_by_test_id(f"your-game-{game.pk}")
    expect(entry.get_by_test_id("game-status")).to_have_text("Your move")
    fits_and_passes_axe(page)
    entry.get_by_role("link", name=f"Open P1 of game {game.pk}").click()
    expect(page.get_by_role("heading", name="Your hand (8)")).to_be_visible()
    assert page.url == site + link
