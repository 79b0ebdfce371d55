"""A designer signs up, creates a set and authors a monster with the live preview: a misspelt
key shows its error with its path, the fix shows the face and a passing report, and the card
goes back to its first revision."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from catalog.models import Card
from tests.conftest import CORE_SET

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MISSPELT = """bad_stuf:
- type: lose_levels
  amount: 2
encoding:
  status: full
"""


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


def test_sign_up_author_a_card_and_revert(page: Page, site: str) -> None:
    blocked: list[str] = []
    page.on(
        "console",
        lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None,
    )

    page.goto(site + "/accounts/signup/")
    page.get_by_label("Username").fill("dana")
    page.locator("#id_password1").fill("a-long-pass-phrase-42")
    page.locator("#id_password2").fill("a-long-pass-phrase-42")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("dana")

    page.get_by_role("link", name="New set").click()
    page.get_by_label("Code").fill("swamp-things")
    page.get_by_label("Name").fill("Swamp Things")
    page.get_by_role("button", name="Create the set").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New card")

    page.get_by_label("Name").fill("Bog Ogre")
    page.get_by_label("Kind").select_option("monster")
    page.locator("#id_level").fill("4")
    page.locator("#id_treasures").fill("1")
    page.get_by_label("Everything else (YAML)").fill(MISSPELT)
    errors = page.get_by_test_id("preview-errors")
    expect(errors).to_contain_text("line 1: bad_stuf: unknown key 'bad_stuf'")
    expect(errors).to_contain_text("did you mean 'bad_stuff'?")
    expect(page.get_by_test_id("preview-face")).to_be_hidden()

    page.get_by_label("Everything else (YAML)").fill(MISSPELT.replace("bad_stuf", "bad_stuff"))
    expect(page.get_by_test_id("preview-state")).to_have_text("The card parses.")
    expect(errors).to_be_empty()
    expect(page.get_by_test_id("preview-face")).to_be_visible()
    expect(page.get_by_test_id("preview-text")).to_contain_text("Bad Stuff: Lose 2 levels.")
    expect(page.get_by_test_id("preview-status")).to_have_text("pass")
    face = page.get_by_test_id("preview-face").evaluate("img => img.naturalWidth")
    assert face == 744  # the real face, 300 DPI

    page.get_by_test_id("save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bog Ogre")
    expect(page.get_by_test_id("validation")).to_have_text("pass")

    page.get_by_test_id("edit-card").click()
    page.locator("#id_level").fill("6")
    page.get_by_test_id("save").click()
    expect(page.get_by_role("status")).to_contain_text("revision 2")

    page.get_by_test_id("history").click()
    expect(page.get_by_test_id("revision-2")).to_contain_text("+level: 6")
    page.get_by_test_id("revert-1").click()
    expect(page.get_by_role("status")).to_contain_text("Reverted to revision 1")
    card = Card.objects.get(name="Bog Ogre")
    assert (card.level, card.revision) == (4, 3)
    assert blocked == [], blocked  # the strict Content-Security-Policy blocked nothing
