"""A whole game at the table in the browser (issue 21): one person against a bot, dealt from
/play/new/ and played through the buttons alone to a winner, on a 360 px phone and a desktop,
each page fitting the screen and passing axe-core."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier

# The slow tier (make test-slow, run by CI): a whole game through the buttons takes a minute.
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 360, "height": 740},
    "desktop": {"width": 1280, "height": 800},
}
SERIOUS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))"""
# The buttons a plain player presses first: fight what can be beaten, else run, and move on.
PREFERRED = ("Fight", "Run away", "Kick open the door", "Loot the room", "End the turn")


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


def fits_and_passes_axe(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    assert page.evaluate(SERIOUS) == []


def press_a_move(page: Page) -> None:
    moves = page.get_by_test_id("moves").get_by_role("button")
    texts = moves.all_inner_texts()
    for wanted in PREFERRED:
        if wanted in texts:
            moves.nth(texts.index(wanted)).click()
            return
    moves.first.click()


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_a_person_plays_a_bot_to_a_winner_by_the_buttons(page: Page, site: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(site + "/play/new/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Play a pack")
    fits_and_passes_axe(page)
    page.get_by_label("Munchkin", exact=True).check()
    expect(page.get_by_label("Seat 1:", exact=True)).to_have_value("person")
    expect(page.get_by_label("Seat 2:", exact=True)).to_have_value("bot")
    page.get_by_label("Seed").fill("7")
    page.get_by_role("button", name="Deal").click()

    expect(page.get_by_test_id("seat-links")).to_contain_text("Seat 2 (bot): plays by itself")
    fits_and_passes_axe(page)
    page.get_by_test_id("seat-link-0").click()
    expect(page.get_by_role("heading", name="Your hand (8)")).to_be_visible()
    fits_and_passes_axe(page)

    status = page.get_by_test_id("status")
    for _ in range(1500):
        if "The game is over" in status.inner_text():
            break
        press_a_move(page)
        page.wait_for_load_state()
    expect(status).to_contain_text("won.")
    expect(page.get_by_test_id("log")).to_contain_text("kicks open the door")
    fits_and_passes_axe(page)
