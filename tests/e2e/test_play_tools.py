"""The table's playtesting tools in the browser (issue 21): undo, restart with the same seed
and save as scenario, on a 360 px phone and a desktop, each page fitting the screen and
passing axe-core."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from authoring.models import CardScenario
from catalog.services import card_create, set_create
from tests.conftest import CORE_SET, PASSWORD
from tests.e2e.sizes import by_tier
from tests.e2e.test_play import SIZES, fits_and_passes_axe
from tests.factories import monster_document

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    user = User.objects.create_user("gwen", password=PASSWORD)
    card_set = set_create(owner=user, code="gwen-ogres", name="Gwen's Ogres")
    card_create(card_set=card_set, actor=user, document=monster_document("Playtest Ogre"))
    return str(live_server.url)


def log_in(page: Page, site: str) -> None:
    page.goto(site + "/accounts/login/?next=/play/new/")
    page.get_by_label("Username").fill("gwen")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Play a pack")


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_undo_restart_and_save_as_scenario_by_the_buttons(page: Page, site: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    log_in(page, site)
    page.get_by_label("Munchkin", exact=True).check()
    page.get_by_label("Gwen's Ogres", exact=True).check()
    page.get_by_label("Seed").fill("3")
    page.get_by_role("button", name="Deal").click()
    page.get_by_test_id("seat-link-0").click()
    tools = page.get_by_test_id("tools")
    expect(tools).to_be_visible()
    fits_and_passes_axe(page)
    hand = page.get_by_test_id("hand").inner_text()

    page.get_by_test_id("moves").get_by_role("button", name="Kick open the door").click()
    expect(page.get_by_test_id("log")).to_contain_text("P1 kicks open the door")
    tools.get_by_role("button", name="Undo the last move").click()
    expect(page.locator(".messages")).to_contain_text("The last move is taken back.")
    expect(page.get_by_test_id("log")).to_contain_text("P1 undoes P1's move (Kick open the door)")
    assert page.get_by_test_id("hand").inner_text() == hand
    fits_and_passes_axe(page)

    page.get_by_test_id("moves").get_by_role("button", name="Kick open the door").click()
    tools.get_by_role("button", name="Restart with the same seed").click()
    expect(page.get_by_test_id("log")).to_contain_text("P1 restarts the game")
    assert page.get_by_test_id("hand").inner_text() == hand

    page.get_by_test_id("moves").get_by_role("button", name="Kick open the door").click()
    tools.get_by_label("Attach to your card").select_option(label="Playtest Ogre (gwen-ogres)")
    tools.get_by_label("Scenario name").fill(f"Door on a {size}")
    tools.get_by_role("button", name="Save as scenario").click()
    expect(page.locator("body")).to_contain_text(
        f"Saved as the scenario 'Door on a {size}' of Playtest Ogre (it passes)"
    )
    fits_and_passes_axe(page)
    assert CardScenario.objects.get().last_status == "pass"
