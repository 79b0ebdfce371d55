"""The header's search box suggests card names as the player types (an ARIA combobox over
GET /api/cards/autocomplete/), by keyboard and by touch, on a phone and a desktop."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
SERIOUS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))"""
SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 360, "height": 740},
    "desktop": {"width": 1280, "height": 800},
}


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_arrow_to_a_suggested_name_and_search_it(page: Page, site: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(site + "/")
    box = page.get_by_role("combobox", name="Search cards")
    box.press_sequentially("bull", delay=30)
    names = page.get_by_role("listbox", name="Card names")
    expect(names.get_by_role("option", name="Bullrog")).to_be_visible()
    expect(box).to_have_attribute("aria-expanded", "true")
    list_box = names.bounding_box()
    assert list_box is not None and list_box["x"] + list_box["width"] <= SIZES[size]["width"]
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    assert page.evaluate(SERIOUS) == []  # with the list open

    box.press("ArrowDown")
    expect(names.get_by_role("option", name="Bullrog")).to_have_attribute("aria-selected", "true")
    box.press("Enter")
    expect(page.get_by_test_id("total")).to_have_text("1 card")
    expect(page.get_by_label("Search cards")).to_have_value('!"Bullrog"')


def test_tap_a_suggested_name_on_a_phone(page: Page, site: str) -> None:
    page.set_viewport_size(SIZES["phone"])
    page.goto(site + "/")
    page.get_by_role("combobox", name="Search cards").press_sequentially("kill t", delay=30)
    page.get_by_role("option", name="Kill the Hireling").click()
    expect(page.get_by_test_id("total")).to_have_text("1 card")
    expect(page.get_by_role("link", name="Kill the Hireling")).to_be_visible()


def test_enter_still_runs_the_query_and_escape_closes_the_list(page: Page, site: str) -> None:
    page.goto(site + "/")
    box = page.get_by_role("combobox", name="Search cards")
    box.press_sequentially("potion", delay=30)
    expect(page.get_by_role("listbox", name="Card names")).to_be_visible()
    box.press("Escape")
    expect(page.get_by_role("listbox", name="Card names")).to_be_hidden()
    expect(box).to_have_attribute("aria-expanded", "false")
    box.press("Enter")  # no name chosen: the words are searched as typed
    expect(page).to_have_url(site + "/cards/?q=potion")


def test_a_query_in_the_search_syntax_gets_no_names(page: Page, site: str) -> None:
    page.goto(site + "/")
    box = page.get_by_role("combobox", name="Search cards")
    box.press_sequentially("t:mon", delay=30)
    page.wait_for_timeout(400)  # longer than the pause before asking
    expect(page.get_by_role("listbox", name="Card names")).to_be_hidden()
