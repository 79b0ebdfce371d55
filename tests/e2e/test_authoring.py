"""A designer signs up, creates a set and authors a monster with the live preview: a misspelt
key shows its error with its path, the fix shows the face and a passing report, and the card
goes back to its first revision."""

import io
import re
import time

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from catalog.models import Card
from catalog.services import set_create
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
    page.locator("#id_name").fill("Swamp Things")
    page.get_by_role("button", name="Create the set").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New card")

    page.locator("#id_name").fill("Bog Ogre")
    page.get_by_label("Kind").select_option("monster")
    page.locator("#id_level").fill("4")
    page.locator("#id_treasures").fill("1")
    show_yaml(page)
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
    # The rules engine checks the saved card in the background: until it has, the page says
    # "unchecked" and its reload link shows the verdict once it is there.
    validation = page.get_by_test_id("validation")
    expect(validation).to_have_text(re.compile("^(unchecked|pass)$"))

    # A wait, not a budget: on a machine busy with other work the check can take a minute.
    # Each reload is waited for, so the badge read is the reloaded page's, never one mid-load.
    deadline = time.monotonic() + 120
    while (validation.text_content() or "").strip() == "unchecked" and time.monotonic() < deadline:
        page.wait_for_timeout(500)
        # The link sits in the rules engine's section, closed until the player opens it (it
        # timed out on a slow check, where the page had to be reloaded at least once).
        page.get_by_test_id("rules-engine").locator("summary").click()
        with page.expect_navigation():
            page.get_by_role("link", name="reload this page").click()
        expect(validation).to_have_text(re.compile(r"^\s*(unchecked|pass|warn|fail)\s*$"))
    expect(validation).to_have_text("pass")

    page.get_by_test_id("edit-card").click()
    page.locator("#id_level").fill("6")
    page.get_by_test_id("save").click()
    expect(page.locator("div[role=status]")).to_contain_text("revision 2")

    page.get_by_test_id("history").click()
    expect(page.get_by_test_id("revision-2")).to_contain_text("+level: 6")
    page.get_by_test_id("revert-1").click()
    expect(page.locator("div[role=status]")).to_contain_text("Reverted to revision 1")
    card = Card.objects.get(name="Bog Ogre")
    assert (card.level, card.revision) == (4, 3)
    assert blocked == [], blocked  # the strict Content-Security-Policy blocked nothing


# --- the editor on phones and desktops (issue 17) ----------------------------------------

ERIN = ("erin", "a-long-pass-phrase-42")
# An error on line 3 of the YAML: the engine's card definitions have no key "bad_stuf".
LINE_3_ERROR = "encoding:\n  status: full\nbad_stuf: []\n"
# Elements of the page's content wider than the window (code boxes scroll on their own).
MAIN_OVERFLOW = """() => Array.from(document.querySelectorAll('main *'))
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
               && !e.closest('pre, .doc-table, .code-editor'))
  .map(e => e.tagName + '.' + e.className)"""


@pytest.fixture
def erins_set(live_server: LiveServer) -> str:
    """Erin, logged out, and her empty set: the address of its new-card editor."""
    user = User.objects.create_user(ERIN[0], password=ERIN[1])
    card_set = set_create(owner=user, code="erin-swamp", name="Swamp")
    return f"{live_server.url}/author/sets/{card_set.code}/add-card/"


def log_in(page: Page, url: str) -> None:
    page.goto(url)  # the editor sends a visitor to log in first, then back
    page.get_by_label("Username").fill(ERIN[0])
    page.locator("#id_password").fill(ERIN[1])
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New card")
    # The heading is there once the HTML is read; the editor's script, which listens for
    # typing, has run only once the page has loaded.
    page.wait_for_load_state("load")


def show_yaml(page: Page) -> None:
    """The effects open on their controls; the YAML is the advanced view (issue 23)."""
    page.get_by_test_id("view-switch").get_by_role("button", name="YAML (advanced)").click()


def stat_row(page: Page, name: str) -> Locator:
    return page.locator(f'.stat-row[data-field="{name}"]')


def test_rows_of_other_kinds_stay_hidden(page: Page, erins_set: str) -> None:
    log_in(page, erins_set)
    # A monster's stats in the rulebook: level, Treasures, levels gained; an item's: slot,
    # Big, bonus, Gold.
    for name in ("level", "treasures", "levels_gained"):
        expect(stat_row(page, name)).to_be_visible()
    for name in ("slot", "big", "bonus", "gold"):
        expect(stat_row(page, name)).to_be_hidden()
    page.get_by_label("Kind").select_option("item")
    for name in ("slot", "big", "bonus", "gold"):
        expect(stat_row(page, name)).to_be_visible()
    for name in ("level", "treasures", "levels_gained"):
        expect(stat_row(page, name)).to_be_hidden()


def test_a_blank_form_shows_no_error_before_the_first_edit(page: Page, erins_set: str) -> None:
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/author/preview/" in r.url else None)
    page.clock.install()  # the page's timers run on a clock the test moves, never on a wait
    log_in(page, erins_set)
    page.clock.run_for(5000)  # far past the preview's pause after typing
    expect(page.get_by_test_id("preview-errors")).to_be_empty()
    expect(page.get_by_test_id("preview-state")).to_have_text("Type to see the card.")
    assert page.locator(".live-error, .gutter .error-line").count() == 0
    assert requests == []
    page.locator("#id_name").fill("Bog Ogre")
    # The pause after typing runs out on the test's clock; the preview's answer comes over
    # the network, on real time, and what the page does with it may wait on the clock again.
    with page.expect_response(lambda r: "/author/preview/" in r.url):
        page.clock.run_for(5000)
    page.clock.run_for(5000)
    # The name alone is not a card: a monster's level must be known when encoding is full.
    expect(page.get_by_test_id("preview-errors").locator("li")).not_to_have_count(0)
    assert len(requests) >= 1


def test_errors_are_marked_on_their_yaml_line_and_clear(page: Page, erins_set: str) -> None:
    log_in(page, erins_set)
    page.locator("#id_name").fill("Bog Ogre")
    page.locator("#id_level").fill("4")
    page.locator("#id_treasures").fill("1")
    page.locator("#id_levels_gained").fill("1")
    show_yaml(page)
    yaml_box = page.get_by_label("Everything else (YAML)")
    yaml_box.fill(LINE_3_ERROR)
    gutter = page.get_by_test_id("yaml-gutter")
    expect(gutter.locator("span.error-line")).to_have_text(["3"])
    expect(gutter.locator("span")).to_have_count(4)  # three lines and the empty last one
    link = page.get_by_test_id("preview-errors").get_by_role("link", name="line 3")
    expect(link).to_be_visible()
    page.locator("#id_name").focus()
    link.click()
    expect(yaml_box).to_be_focused()
    start = yaml_box.evaluate("t => t.selectionStart")
    assert start == len("encoding:\n  status: full\n")  # the caret is at line 3's start
    yaml_box.fill(LINE_3_ERROR.replace("bad_stuf", "bad_stuff"))
    expect(page.get_by_test_id("preview-state")).to_have_text("The card parses.")
    expect(gutter.locator("span.error-line")).to_have_count(0)
    expect(page.get_by_test_id("preview-errors")).to_be_empty()


def test_yaml_and_preview_take_turns_on_a_phone(page: Page, erins_set: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, erins_set)
    tabs = page.get_by_test_id("editor-tabs")
    yaml_box = page.get_by_label("Everything else (YAML)")
    preview = page.locator("#editor-preview")
    expect(tabs).to_be_visible()
    expect(page.get_by_test_id("card-controls")).to_be_visible()
    expect(preview).to_be_hidden()
    show_yaml(page)
    expect(yaml_box).to_be_visible()
    assert page.evaluate(MAIN_OVERFLOW) == []
    page.locator("#id_name").fill("Bog Ogre")
    yaml_box.fill(LINE_3_ERROR)
    expect(tabs.get_by_role("button", name="Preview")).to_contain_text("1 problem")
    tabs.get_by_role("button", name="Preview").click()
    expect(preview).to_be_visible()
    expect(yaml_box).to_be_hidden()
    expect(tabs.get_by_role("button", name="Preview")).to_have_attribute("aria-pressed", "true")
    # The error's line link brings the YAML back with the caret on that line.
    page.get_by_test_id("preview-errors").get_by_role("link", name="line 3").click()
    expect(yaml_box).to_be_focused()
    assert page.evaluate(MAIN_OVERFLOW) == []
    # Side by side on a desktop: no buttons needed.
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(tabs).to_be_hidden()
    expect(preview).to_be_visible()
    expect(yaml_box).to_be_visible()


def test_the_help_opens_the_effect_language_page(page: Page, erins_set: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, erins_set)
    page.get_by_test_id("effect-language-link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The effect language, version 1")
    expect(page.get_by_role("heading", name="Effects", exact=True)).to_be_visible()
    assert page.evaluate(MAIN_OVERFLOW) == []
    # Wide tables scroll inside their own box, not the page.
    box = page.locator(".doc-table").first
    assert box.evaluate("b => b.getBoundingClientRect().right") <= 360
