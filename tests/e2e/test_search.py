"""A visitor searches, opens a card, and learns the syntax from clickable examples."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CORE_SET

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


def test_search_open_a_card_and_run_a_help_example(page: Page, site: str) -> None:
    page.goto(site + "/")
    page.get_by_label("Search cards").fill("t:monster tag:undead")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("total")).to_have_text("4 cards")
    assert "q=t%3Amonster+tag%3Aundead" in page.url
    page.get_by_role("link", name="King Tut").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("King Tut")

    page.get_by_role("link", name="Syntax").click()
    page.get_by_role("link", name="lvl>=16").click()
    expect(page.get_by_test_id("total")).to_have_text("6 cards")

    page.get_by_label("Search cards").fill("t:monstr")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("warnings")).to_contain_text("did you mean 'monster'?")


def test_search_results_as_faces_a_list_and_a_checklist(page: Page, site: str) -> None:
    page.goto(site + "/cards/?q=t%3Amonster+lvl%3E%3D18")
    expect(page.get_by_test_id("total")).to_have_text("3 cards")
    expect(page.get_by_test_id("grid").get_by_role("img")).to_have_count(3)

    page.get_by_role("link", name="List", exact=True).click()
    # Plutonium Dragon in the fixture: Level 20, 5 Treasures, 2 levels.
    expect(page.get_by_test_id("list")).to_contain_text("Level 20 · 5 Treasures · +2 levels")
    page.get_by_role("link", name="Checklist", exact=True).click()
    expect(page.get_by_test_id("checklist").locator("tbody tr")).to_have_count(3)
    assert "q=t%3Amonster+lvl%3E%3D18" in page.url and "view=checklist" in page.url

    page.goto(site + "/cards/?q=t%3Amonster&view=table")
    expect(page.get_by_test_id("errors")).to_contain_text("grid, list, checklist")
