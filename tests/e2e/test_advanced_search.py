"""A visitor fills in the advanced search, watches the query it writes, and lands on the
search's permalink; a bad number keeps them on the form with the field marked."""

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


def test_fill_the_advanced_form_and_land_on_the_permalink(page: Page, site: str) -> None:
    page.goto(site + "/cards/advanced/")
    form = page.locator("form.advanced-search")
    form.get_by_label("Kind").select_option("monster")
    form.get_by_text("Tags (all of them)", exact=True).click()  # folded until used
    form.get_by_label("Undead").check()
    form.get_by_label("Level at least").fill("16")
    # The query is written while the form is filled in, before anything is submitted.
    expect(page.get_by_test_id("built-query")).to_have_text("t:monster tag:undead lvl>=16")
    form.get_by_role("button", name="Search").click()
    page.wait_for_url("**/cards/?q=*")
    assert page.url.endswith("/cards/?q=t%3Amonster+tag%3Aundead+lvl%3E%3D16")
    expect(page.get_by_label("Search cards")).to_have_value("t:monster tag:undead lvl>=16")
    # The undead monsters of level 16 and more in the core set file: King Tut, Wight Brothers.
    expect(page.get_by_role("link", name="King Tut (munchkin-core)")).to_be_visible()
    expect(page.get_by_role("link", name="Wight Brothers (munchkin-core)")).to_be_visible()


def test_a_bad_range_stays_on_the_form_with_the_field_marked(page: Page, site: str) -> None:
    page.goto(site + "/cards/advanced/")
    form = page.locator("form.advanced-search")
    form.get_by_label("Level at least").fill("10")
    form.get_by_label("Level at most").fill("3")
    expect(page.get_by_test_id("built-query")).to_contain_text("3 is below the lowest, 10")
    answer_status = []
    page.on(
        "response", lambda r: answer_status.append(r.status) if "/advanced/?" in r.url else None
    )
    form.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("form-errors")).to_be_visible()
    assert 400 in answer_status
    expect(form.get_by_label("Level at most")).to_have_value("3")
    assert "/cards/advanced/" in page.url
