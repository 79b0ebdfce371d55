"""The card editor's controls (issue 23): a designer builds a card's effects, conditions and Bad
Stuff with controls, never touching YAML, and saves the same document a hand-written YAML
gives; the YAML view follows the controls and the controls follow the YAML; a type the
controls do not know yet stays editable as YAML; errors sit on their controls; a new effect
type added to the definitions shows up with no editor code."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from catalog.models import Card
from catalog.services import set_create
from tests.conftest import CORE_SET
from tests.e2e.test_authoring import ERIN, MAIN_OVERFLOW
from validator.engine import dump_card, parse_card

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The documents the designer builds, as the effect language's reference would write them.
LEVEL_8_MONSTER = """
name: Elf Eater
deck: door
kind: monster
copies: 1
level: 8
treasures: 2
effects:
  - {type: strength, amount: 3, when: {race: elf}}
bad_stuff:
  - {type: lose_levels, amount: 2}
encoding: {status: full}
"""
DWARF_AXE = """
name: Beard Splitter
deck: treasure
kind: item
copies: 1
slot: one_hand
bonus: 2
gold: 400
usable_by: {race: dwarf}
encoding: {status: full}
"""


def by_hand(text: str) -> dict[str, Any]:
    return dump_card(parse_card(yaml.safe_load(text)))


@pytest.fixture
def editor(live_server: LiveServer) -> str:
    """Erin's empty set, with the core set in the catalog for the example cards."""
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    user = User.objects.create_user(ERIN[0], password=ERIN[1])
    card_set = set_create(owner=user, code="erin-swamp", name="Swamp")
    return f"{live_server.url}/author/sets/{card_set.code}/add-card/"


def open_editor(page: Page, url: str) -> Locator:
    page.goto(url)
    if page.get_by_label("Username").count():
        page.get_by_label("Username").fill(ERIN[0])
        page.locator("#id_password").fill(ERIN[1])
        page.get_by_role("button", name="Log in").click()
    controls = page.get_by_test_id("card-controls")
    expect(controls).to_have_attribute("data-ready", "true")
    return controls


def add(part: Locator, title: str, noun: str = "effect") -> None:
    part.get_by_label(f"Add an {noun}" if noun == "effect" else f"Add a {noun}").last.select_option(
        label=title
    )
    part.get_by_role("button", name=f"Add the chosen {noun}").last.click()


def wait_parsed(page: Page) -> None:
    expect(page.get_by_test_id("preview-state")).to_have_text("The card parses.")
    expect(page.get_by_test_id("preview-status")).to_have_text("pass")


def saved(name: str) -> dict[str, Any]:
    document: dict[str, Any] = Card.objects.get(name=name).document
    return document


@pytest.mark.parametrize("width", [360, 1280])
def test_a_level_8_monster_built_without_yaml(page: Page, editor: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    controls = open_editor(page, editor)
    expect(page.get_by_label("Everything else (YAML)")).to_be_hidden()
    page.get_by_label("Name").fill("Elf Eater")
    page.get_by_label("Copies").fill("1")
    page.locator("#id_level").fill("8")
    page.locator("#id_treasures").fill("2")

    effects = controls.locator('[data-part="effects"]')
    add(effects, "+N to combat strength")
    effects.get_by_label("Amount").fill("3")
    effects.get_by_label("Only when").select_option(label="Race is...")
    effects.get_by_label("Race", exact=True).fill("elf")
    # Each effect says what it does in plain words, with a real card that uses it.
    expect(effects.locator(".ctl-help").first).to_contain_text("combat strength")
    expect(effects.locator(".ctl-help a").first).to_have_attribute(
        "href", re.compile(r"^/sets/munchkin-core/[a-z0-9-]+/$")
    )

    bad = controls.locator('[data-part="bad_stuff"]')
    # Bad Stuff offers only what happens to a player: no "+N to combat strength" there.
    assert "+N to combat strength" not in bad.get_by_label("Add an effect").inner_text()
    add(bad, "Lose levels")
    bad.get_by_label("Amount").select_option(label="a number")
    bad.get_by_label("Amount: a number").fill("2")

    if width < 900:  # on a phone the face is behind the Preview tab
        page.get_by_test_id("editor-tabs").get_by_role("button", name="Preview").click()
    wait_parsed(page)
    text = page.get_by_test_id("preview-text")
    expect(text).to_contain_text("+3 to its combat strength against an Elf")
    expect(text).to_contain_text("Lose 2 levels")
    assert page.evaluate(MAIN_OVERFLOW) == []
    if width < 900:
        page.get_by_test_id("editor-tabs").get_by_role("button", name="Edit").click()
    page.get_by_test_id("save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Elf Eater")
    assert saved("Elf Eater") == by_hand(LEVEL_8_MONSTER)
    assert errors == []


def test_an_item_usable_only_by_dwarves(page: Page, editor: str) -> None:
    controls = open_editor(page, editor)
    page.get_by_label("Name").fill("Beard Splitter")
    page.get_by_label("Kind").select_option("item")
    page.get_by_label("Deck").select_option("treasure")
    page.get_by_label("Copies").fill("1")
    page.locator("#id_slot").select_option("one_hand")
    page.locator("#id_bonus").fill("2")
    page.locator("#id_gold").fill("400")
    usable = controls.locator('[data-part="usable_by"]')
    usable.get_by_label("Usable only by").select_option(label="Race is...")
    usable.get_by_label("Race", exact=True).fill("dwarf")
    wait_parsed(page)
    expect(page.get_by_test_id("preview-text")).to_contain_text("Dwarf")
    page.get_by_test_id("save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Beard Splitter")
    assert saved("Beard Splitter") == by_hand(DWARF_AXE)
