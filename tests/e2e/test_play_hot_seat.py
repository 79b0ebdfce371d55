"""Hot-seat mode in the browser (issue 21): two people share one device; between their turns
a cover screen names who takes it, so neither sees the other's hand. At 360 px and 1280 px,
each page fitting the screen and passing axe-core."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier
from tests.e2e.test_play import SIZES, fits_and_passes_axe, press_a_move

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_two_people_pass_one_device_behind_a_cover(page: Page, site: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(site + "/play/new/")
    page.get_by_label("Munchkin", exact=True).check()
    page.get_by_label("Seat 2:", exact=True).select_option("person")
    page.get_by_label("Seat 3:", exact=True).select_option("bot")
    page.get_by_label("Hot seat: the people play on this one device").check()
    page.get_by_label("Seed").fill("5")
    page.get_by_role("button", name="Deal").click()
    fits_and_passes_axe(page)
    page.get_by_test_id("hot-seat-link").click()

    cover = page.get_by_test_id("cover")
    expect(cover.get_by_role("heading", level=1)).to_have_text("Pass the device to P1")
    expect(page.get_by_test_id("hand")).to_have_count(0)  # no hand behind the cover
    fits_and_passes_axe(page)
    cover.get_by_role("button", name="I am P1: show my hand").click()
    expect(page.get_by_role("heading", name="Your hand (8)")).to_be_visible()
    first_hand = page.get_by_test_id("hand").inner_text()
    fits_and_passes_axe(page)

    # P1 plays until the turn passes: the cover comes for P2 (the bot, seat 3, moves at once
    # after P2, never between P1 and P2).
    for _ in range(200):
        if cover.count():
            break
        press_a_move(page)
        page.wait_for_load_state()
    expect(cover.get_by_role("heading", level=1)).to_have_text("Pass the device to P2")
    expect(page.get_by_test_id("hand")).to_have_count(0)
    cover.get_by_role("button", name="I am P2: show my hand").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Game {page.url.split('/')[4]}: P2")
    assert page.get_by_test_id("hand").inner_text() != first_hand
    fits_and_passes_axe(page)
    # Out of turn, P1 may take the device back (to curse, say), behind the cover again.
    page.get_by_test_id("hot-seat-others").get_by_role("link", name="P1").click()
    expect(cover.get_by_role("heading", level=1)).to_have_text("Pass the device to P1")
