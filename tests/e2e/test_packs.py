"""A designer builds a blended pack in the browser, reads its blend report, and simulates
500 games in the background until the server-drawn plots appear."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", stdout=io.StringIO())
    User.objects.create_user("erin", password="a-long-pass-phrase-42")
    return str(live_server.url)


def test_build_a_pack_and_simulate_it(page: Page, site: str) -> None:
    page.goto(site + "/accounts/login/?next=/packs/new/")
    page.get_by_label("Username").fill("erin")
    page.locator("#id_password").fill("a-long-pass-phrase-42")
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Build a pack")
    page.get_by_label("Munchkin", exact=True).check()
    page.get_by_label("Munchkin Booty").check()
    page.get_by_role("button", name="Preview").click()
    report = page.get_by_test_id("blend-report")
    expect(report).to_contain_text("Door and")
    expect(page.get_by_test_id("duplicated")).to_contain_text("Wandering Monster")
    page.get_by_label("Pack name").fill("Pirates and dungeons")
    page.get_by_test_id("build").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Pirates and dungeons")
    expect(page.get_by_test_id("balance")).to_contain_text("Door and")
    page.get_by_test_id("simulate").click()
    # The page refreshes itself while the task runs in the background.
    expect(page.get_by_test_id("invariant-violations")).to_have_text("0", timeout=120_000)
    for plot in ("game-lengths", "wins-by-seat", "monsters-beaten", "levels-per-turn"):
        image = page.get_by_test_id(f"plot-{plot}")
        image.scroll_into_view_if_needed()  # the plots load lazily
        expect(image).to_be_visible()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=image.element_handle()
        )  # the SVG loaded and drew
