"""A visitor opens the home page, goes to a set and follows a link to a card."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CORE_SET

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def loaded_site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    call_command("validate_cards", stdout=io.StringIO())
    return str(live_server.url)


def test_home_to_set_to_card(page: Page, loaded_site: str) -> None:
    page.goto(loaded_site + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Every set, every card")
    expect(page.locator('[data-set="munchkin-core"] [data-count="cards"]')).to_have_text("147")

    page.get_by_role("link", name="Munchkin", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Munchkin")

    # Faces first; the validation coverage waits in the closed "Rules engine" section.
    expect(page.get_by_test_id("grid").get_by_role("img")).to_have_count(147)
    expect(page.get_by_test_id("coverage")).to_be_hidden()
    page.get_by_text("Rules engine", exact=True).click()
    expect(page.get_by_test_id("coverage")).to_contain_text("147")

    page.get_by_label("Kind").select_option("monster")
    page.get_by_label("Sort by").select_option("level")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_test_id("total")).to_have_text("37 cards")
    page.get_by_role("link", name="List", exact=True).click()
    expect(page.get_by_test_id("list")).to_contain_text("Level 10 · 3 Treasures")
    assert "kind=monster" in page.url and "view=list" in page.url

    page.get_by_role("link", name="Net Troll").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Net Troll")
    # Player information first: the stats and the Bad Stuff, the rules engine folded away.
    expect(page.get_by_test_id("stats")).to_contain_text("Level")
    expect(page.get_by_test_id("stats")).to_contain_text("10")
    expect(page.get_by_test_id("bad-stuff")).to_contain_text("highest Level")
    expect(page.get_by_test_id("encoding")).to_be_hidden()
    page.get_by_text("Rules engine", exact=True).click()
    expect(page.get_by_test_id("encoding")).to_be_visible()
    expect(page.get_by_test_id("validation")).to_have_text("pass")
    assert page.url.endswith("/sets/munchkin-core/net-troll/")


# The rightmost edge of what the page's main content draws, outside boxes that scroll on
# their own (the header is the layout's, checked by the sweep of every page).
CONTENT_RIGHT = """() => Math.max(...[...document.querySelectorAll('main *')]
    .filter(e => !(e.parentElement && e.parentElement.closest('.table-scroll')))
    .map(e => e.getBoundingClientRect().right))"""


@pytest.mark.parametrize("view", ["grid", "list", "checklist"])
def test_set_page_views_fit_a_phone(page: Page, loaded_site: str, view: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{loaded_site}/sets/munchkin-core/?view={view}")
    expect(page.get_by_test_id(view)).to_be_visible()
    assert page.evaluate(CONTENT_RIGHT) <= 360
    if view == "grid":  # two faces side by side
        boxes = [
            img.bounding_box() for img in page.get_by_test_id("grid").get_by_role("img").all()[:2]
        ]
        assert boxes[0] and boxes[1] and boxes[0]["y"] == boxes[1]["y"]
        assert boxes[1]["x"] + boxes[1]["width"] <= 360
