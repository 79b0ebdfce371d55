"""The card editor's controls (issue 23): a designer builds a card's effects, conditions and Bad
Stuff with controls, never touching YAML, and saves the same document a hand-written YAML
gives; the YAML view follows the controls and the controls follow the YAML; a type the
controls do not know yet stays editable as YAML; errors sit on their controls; a new effect
type added to the definitions shows up with no editor code."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Browser, Locator, Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from authoring.controls import controls_config, controls_data
from authoring.editor import merge_document, split_document
from authoring.selectors import effect_examples
from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from tests.authoring.test_controls import fixture_documents
from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier
from tests.e2e.test_authoring import ERIN, MAIN_OVERFLOW
from tests.e2e.test_sweep import AXE, AXE_RUN_JS
from tests.factories import monster_document
from validator.engine import EFFECT_TYPES, dump_card, parse_card, read_yaml

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"

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


@pytest.mark.parametrize("width", by_tier([360, 1280]))
def test_a_level_8_monster_built_without_yaml(page: Page, editor: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    controls = open_editor(page, editor)
    expect(page.get_by_label("Everything else (YAML)")).to_be_hidden()
    page.locator("#id_name").fill("Elf Eater")
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
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"card-controls-{width}.png", full_page=True)
    page.get_by_test_id("save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Elf Eater")
    assert saved("Elf Eater") == by_hand(LEVEL_8_MONSTER)
    assert errors == []


def test_an_item_usable_only_by_dwarves(page: Page, editor: str) -> None:
    controls = open_editor(page, editor)
    page.locator("#id_name").fill("Beard Splitter")
    page.get_by_label("Kind").select_option("item")
    page.get_by_label("Deck").select_option("treasure")
    page.get_by_label("Copies").fill("1")
    page.locator("#id_slot").select_option("one_hand")
    page.locator("#id_bonus").fill("2")
    page.locator("#id_gold").fill("400")
    usable = controls.locator('[data-part="usable_by"]')
    usable.get_by_label("Usable only by").select_option(label="Race is...")
    race = usable.get_by_label("Race", exact=True)
    # The races the catalog names are offered as the designer types.
    options = race.evaluate("i => Array.from(i.list.options).map((o) => o.value)")
    assert {"dwarf", "elf", "halfling"} <= set(options)
    race.fill("dwarf")
    wait_parsed(page)
    expect(page.get_by_test_id("preview-text")).to_contain_text("Dwarf")
    page.get_by_test_id("save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Beard Splitter")
    assert saved("Beard Splitter") == by_hand(DWARF_AXE)


def test_the_yaml_view_follows_the_controls_and_back(page: Page, editor: str) -> None:
    controls = open_editor(page, editor)
    page.locator("#id_name").fill("Bog Ogre")
    effects = controls.locator('[data-part="effects"]')
    add(effects, "Wins ties")
    switch = page.get_by_test_id("view-switch")
    switch.get_by_role("button", name="YAML (advanced)").click()
    yaml_box = page.get_by_label("Everything else (YAML)")
    expect(controls).to_be_hidden()
    assert yaml.safe_load(yaml_box.input_value())["effects"] == [{"type": "wins_ties"}]
    # Edited as YAML: the controls show the new document when they come back.
    yaml_box.fill(
        "effects:\n- {type: runaway, amount: -2}\n- {type: wins_ties}\nencoding: {status: full}\n"
    )
    switch.get_by_role("button", name="Controls").click()
    items = effects.locator(":scope .ctl-list > li")
    expect(items).to_have_count(2)
    expect(items.first.get_by_label("Amount")).to_have_value("-2")
    # Reordered with the buttons, the YAML follows.
    items.first.get_by_role("button", name="Move effect 1 down").click()
    assert [e["type"] for e in yaml.safe_load(yaml_box.input_value())["effects"]] == [
        "wins_ties",
        "runaway",
    ]
    effects.get_by_role("button", name="Remove effect 1").click()
    assert yaml.safe_load(yaml_box.input_value())["effects"] == [{"type": "runaway", "amount": -2}]


def test_what_the_controls_cannot_show_stays_as_written(page: Page, editor: str) -> None:
    controls = open_editor(page, editor)
    page.get_by_test_id("view-switch").get_by_role("button", name="YAML (advanced)").click()
    written = (
        "effects:\n- {type: strength, amount: 1, mystery: [1, {deep: yes}]}\n"
        "- {type: not_a_type_yet, power: 9000}\n"
        "bad_stuf: {anything: [goes, here]}\n"
        "encoding: {status: full}\n"
    )
    page.get_by_label("Everything else (YAML)").fill(written)
    page.get_by_test_id("view-switch").get_by_role("button", name="Controls").click()
    raws = controls.locator(".ctl-raw")
    expect(raws).to_have_count(3)
    expect(controls).to_contain_text('"mystery" is not a field here')
    expect(controls).to_contain_text('"bad_stuf" is not a part of a monster card')
    # Built with the controls beside them, the parts they cannot show are kept untouched.
    controls.locator('[data-part="tags"]').get_by_label("undead").check()
    document = read_yaml(page.get_by_label("Everything else (YAML)").input_value(), "yaml").data
    assert document == {**read_yaml(written, "yaml").data, "tags": ["undead"]}


def test_errors_sit_on_the_control_that_caused_them(page: Page, editor: str) -> None:
    controls = open_editor(page, editor)
    page.locator("#id_name").fill("Bog Ogre")
    page.locator("#id_level").fill("2")
    page.locator("#id_treasures").fill("1")
    effects = controls.locator('[data-part="effects"]')
    add(effects, "+N to combat strength")  # its amount is left to the designer
    amount_row = effects.locator('.ctl-field[data-path="effects[0].amount"]')
    expect(page.get_by_test_id("preview-errors")).to_contain_text("effects[0].amount")
    expect(amount_row.get_by_test_id("control-error")).to_have_count(0)  # not yet had a chance
    effects.get_by_label("Amount").focus()
    effects.get_by_label("Amount").blur()  # been there, left it empty
    # In the designer's words, not the parser's ("required key is missing").
    expect(amount_row.get_by_test_id("control-error")).to_have_text(
        "Amount is still empty: fill it in."
    )
    expect(amount_row.get_by_label("Amount")).to_have_attribute("aria-invalid", "true")
    effects.get_by_label("Amount").fill("2")
    expect(page.get_by_test_id("preview-state")).to_have_text("The card parses.")
    expect(controls.get_by_test_id("control-error")).to_have_count(0)


def test_a_new_effect_type_shows_up_with_no_editor_code(page: Page, editor: str) -> None:
    from tests.authoring.test_controls import Shout, with_definition

    config = controls_config(
        examples=effect_examples(),
        effect_types=(*EFFECT_TYPES, Shout),
        schema=with_definition(Shout),
    )
    # The definitions as the engine would publish them with one more effect type.
    page.route(
        "**/author/card-controls.json*",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(config)
        ),
    )
    controls = open_editor(page, editor)
    effects = controls.locator('[data-part="effects"]')
    add(effects, "Shout")
    expect(effects).to_contain_text("The player shouts, frightening the monster.")
    effects.get_by_label("Times").fill("3")
    effects.get_by_label("Loud").check()
    page.get_by_test_id("view-switch").get_by_role("button", name="YAML (advanced)").click()
    written = yaml.safe_load(page.get_by_label("Everything else (YAML)").input_value())
    assert written["effects"] == [{"type": "shout", "times": 3, "loud": True}]


def test_the_yaml_writer_gives_back_every_fixture_card(page: Page, editor: str) -> None:
    """The browser's YAML of each fixture card's controls model reads back, with the server's
    own reader, as the same mapping; merged with the form it is the same card."""
    open_editor(page, editor)
    halves = [split_document(d) for d in fixture_documents()]
    models = [controls_data(text) for _values, text in halves]
    texts = page.evaluate("(models) => models.map((m) => window.cardYaml.dump(m))", models)
    for (values, _text), model, text in zip(halves, models, texts, strict=True):
        assert model is not None
        assert read_yaml(text, "yaml").data == model, text
        merged = merge_document(values, text)
        assert merged.document is not None
        assert dump_card(parse_card(merged.document)) == dump_card(parse_card({**model, **values}))
    # Words YAML would read as something else are quoted.
    tricky = {"notes": "yes", "tags": ["on", "12", "a: b", "#x", " pad", "line\nbreak", "\x85"]}
    text = page.evaluate("(m) => window.cardYaml.dump(m)", tricky)
    assert read_yaml(text, "yaml").data == tricky


def sample_cards() -> list[dict[str, Any]]:
    """Fixture cards that use the language's harder shapes, and one card of each kind."""
    documents = fixture_documents()
    picked: dict[str, dict[str, Any]] = {}
    for document in documents:
        text = json.dumps(document)
        for feature in (
            '"otherwise"',
            '"type": "roll"',
            '"type": "choose"',
            '"abilities"',
            '"not":',
            '"any":',
            '"all":',
            '"per"',
            '"usable_by"',
            '"requires"',
        ):
            if feature in text and feature not in picked:
                picked[feature] = document
        picked.setdefault(document["kind"], document)
    unique = {d["name"]: d for d in picked.values()}
    return list(unique.values())


@pytest.mark.slow  # 31 cards, one per feature, each opened, changed back and saved
def test_fixture_cards_opened_and_saved_unchanged(page: Page, editor: str) -> None:
    """A sample of fixture cards in the editor: the controls show every part (nothing left as
    YAML), write the YAML again, and the save stores the card's own document."""
    open_editor(page, editor)
    user = User.objects.get(username=ERIN[0])
    card_set = CardSet.objects.get(code="erin-swamp")
    cards = sample_cards()
    assert len(cards) >= 12
    for document in cards:
        card = card_create(card_set=card_set, actor=user, document=document)
        page.goto(f"{editor.rsplit('/author/', 1)[0]}/author/sets/erin-swamp/cards/{card.slug}/")
        controls = page.get_by_test_id("card-controls")
        expect(controls).to_have_attribute("data-ready", "true")
        assert controls.locator(".ctl-raw").count() == 0, document["name"]
        # A change undone: the controls write the whole document out again.
        tags = controls.locator('[data-part="tags"]')
        unused = next(t for t in ("fire", "pole", "wand") if t not in document.get("tags", []))
        tags.get_by_label(unused, exact=True).check()
        tags.get_by_label(unused, exact=True).uncheck()
        page.get_by_test_id("save").click()
        expect(page.get_by_text(f"Saved '{document['name']}' as revision 2")).to_be_visible()
        card.refresh_from_db()
        assert card.document == dump_card(parse_card(document)), document["name"]


def test_the_controls_wait_for_their_definitions_when_the_preview_answers_first(
    page: Page, editor: str
) -> None:
    """On a slow line the preview of a card may come back before the controls' definitions:
    nothing breaks (it once threw on the missing schema), and the controls are drawn with the
    card once the definitions arrive."""
    open_editor(page, editor)  # logs Erin in
    user = User.objects.get(username=ERIN[0])
    card_set = CardSet.objects.get(code="erin-swamp")
    card = card_create(card_set=card_set, actor=user, document=monster_document(name="Late Bog"))
    held: list[Route] = []
    page.route("**/author/card-controls.json*", lambda route: held.append(route))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{editor.rsplit('/author/', 1)[0]}/author/sets/erin-swamp/cards/{card.slug}/")
    wait_parsed(page)  # the preview has answered; the definitions are still held
    assert len(held) == 1
    controls = page.get_by_test_id("card-controls")
    expect(controls).not_to_have_attribute("data-ready", "true")
    assert errors == []
    held[0].continue_()
    expect(controls).to_have_attribute("data-ready", "true")
    expect(controls.locator(".ctl-part").first).to_be_visible()
    assert errors == []


@pytest.mark.parametrize("width", by_tier([360, 1280]))
def test_the_controls_fit_and_pass_axe(page: Page, editor: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    controls = open_editor(page, editor)
    effects = controls.locator('[data-part="effects"]')
    add(effects, "Monster will not pursue")
    effects.get_by_label("Except").select_option(label="All of these")
    add(effects, "Race is...", noun="condition")
    add(effects, "+N to combat strength")
    page.get_by_label("Kind").select_option("monster")
    expect(effects.locator(":scope > .ctl-list-box > .ctl-list > li")).to_have_count(2)
    assert page.evaluate(MAIN_OVERFLOW) == []
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    axe = page.evaluate(AXE_RUN_JS)
    assert axe["checked"] > 10, axe
    assert axe["violations"] == [], axe["violations"]


def test_start_from_a_template(page: Page, editor: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    open_editor(page, editor)
    start = page.get_by_test_id("start-from")
    # Closed on a new card (it would push the form down a phone's screen), opened at a tap.
    expect(start).not_to_have_attribute("open", "")
    start.get_by_text("Start from…").click()
    start.get_by_role("link", name="A monster with a bonus against a class").click()
    controls = page.get_by_test_id("card-controls")
    expect(controls).to_have_attribute("data-ready", "true")
    effects = controls.locator('[data-part="effects"]')
    expect(effects.get_by_label("Only when")).to_have_value("class")
    expect(effects.get_by_label("Class", exact=True)).to_have_value("wizard")
    # A template is checked at once, like any card to start from.
    page.get_by_test_id("editor-tabs").get_by_role("button", name="Preview").click()
    expect(page.get_by_test_id("preview-text")).to_contain_text("against a Wizard")
    assert page.evaluate(MAIN_OVERFLOW) == []


def test_without_javascript_the_editor_is_the_yaml_form(browser: Browser, editor: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(editor)
        page.get_by_label("Username").fill(ERIN[0])
        page.locator("#id_password").fill(ERIN[1])
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_test_id("card-controls")).to_be_hidden()
        expect(page.get_by_test_id("view-switch")).to_be_hidden()
        page.locator("#id_name").fill("Elf Eater")
        page.locator("#id_copies").fill("1")
        page.locator("#id_level").fill("8")
        page.locator("#id_treasures").fill("2")
        document = yaml.safe_load(LEVEL_8_MONSTER)
        rest = {k: document[k] for k in ("effects", "bad_stuff", "encoding")}
        page.get_by_label("Everything else (YAML)").fill(yaml.safe_dump(rest))
        page.get_by_test_id("save").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Elf Eater")
        assert saved("Elf Eater") == by_hand(LEVEL_8_MONSTER)
    finally:
        context.close()


def test_conditions_compose_with_any_all_and_not(page: Page, editor: str) -> None:
    controls = open_editor(page, editor)
    page.get_by_label("Kind").select_option("item")
    usable = controls.locator('[data-part="usable_by"]')
    usable.get_by_label("Usable only by").select_option(label="Any of these")
    add(usable, "Race is...", noun="condition")
    add(usable, "Not this", noun="condition")
    items = usable.locator(".ctl-list > li")
    items.nth(0).get_by_label("Race", exact=True).fill("elf")
    inside_not = items.nth(1).locator(".ctl-condition .ctl-condition select").first
    inside_not.select_option(label="All of these")
    add(items.nth(1), "Class is...", noun="condition")
    add(items.nth(1), "Level between...", noun="condition")
    inner = items.nth(1).locator(".ctl-list > li")
    inner.nth(0).get_by_label("Class", exact=True).fill("wizard")
    inner.nth(1).get_by_label("Min").fill("5")
    page.get_by_test_id("view-switch").get_by_role("button", name="YAML (advanced)").click()
    written = read_yaml(page.get_by_label("Everything else (YAML)").input_value(), "yaml").data
    # "Usable by an Elf, or by anyone who is not a Wizard of Level 5 or more."
    assert written["usable_by"] == {
        "any": [{"race": "elf"}, {"not": {"all": [{"class": "wizard"}, {"level": {"min": 5}}]}}]
    }


def test_a_race_written_as_players_write_it_and_leaving_unsaved_asks_first(
    page: Page, editor: str
) -> None:
    """Issue 38: "Elf" (or "Elves") is the race elf, with no message; a card edited and not
    saved is not lost to a stray link: leaving asks first, saving does not."""
    page.set_viewport_size({"width": 360, "height": 740})
    controls = open_editor(page, editor)
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.type)
        dialog.dismiss()  # stay on the page

    page.on("dialog", answer)
    page.locator("#id_name").fill("Test Gobbler")
    page.get_by_label("Copies").fill("1")
    page.locator("#id_level").fill("7")
    page.locator("#id_treasures").fill("2")
    effects = controls.locator('[data-part="effects"]')
    add(effects, "+N to combat strength")
    effects.get_by_label("Amount").fill("3")
    effects.get_by_label("Only when").select_option(label="Race is...")
    effects.get_by_label("Race", exact=True).fill("Elves")
    page.get_by_test_id("editor-tabs").get_by_role("button", name="Preview").click()
    wait_parsed(page)
    expect(page.get_by_test_id("preview-text")).to_contain_text("against an Elf")
    page.get_by_test_id("editor-tabs").get_by_role("button", name="Edit").click()

    editing = page.url
    page.get_by_role("link", name="Munchkin card site").first.click()
    page.wait_for_timeout(300)
    assert asked == ["beforeunload"] and page.url == editing
    page.get_by_test_id("save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Test Gobbler")
    assert asked == ["beforeunload"]  # saving left without asking
    when = saved("Test Gobbler")["effects"][0]["when"]
    assert when == {"race": "elf"}


def test_a_new_effect_waits_for_the_designer_and_every_edit_can_be_undone(
    page: Page, editor: str
) -> None:
    """Issue 38: a just-added effect flags nothing on its empty fields before the designer has
    been in them (the preview still lists them); every edit of the controls can be undone and
    redone, "Remove" included."""
    page.set_viewport_size({"width": 360, "height": 740})
    controls = open_editor(page, editor)
    history = page.get_by_test_id("edit-history")
    undo = history.get_by_role("button", name="Undo", exact=True)
    redo = history.get_by_role("button", name="Redo", exact=True)
    expect(undo).to_be_disabled()  # a fresh page: nothing to undo yet
    expect(redo).to_be_disabled()
    page.locator("#id_name").fill("Test Gobbler")
    page.get_by_label("Copies").fill("1")
    page.locator("#id_level").fill("7")
    page.locator("#id_treasures").fill("2")

    effects = controls.locator('[data-part="effects"]')
    add(effects, "+N to combat strength")
    amount_row = effects.locator('.ctl-field[data-path="effects[0].amount"]')
    expect(page.get_by_test_id("preview-errors")).to_contain_text("effects[0].amount")
    expect(amount_row.get_by_test_id("control-error")).to_have_count(0)
    expect(amount_row).not_to_have_class(re.compile(r"\bctl-has-error\b"))
    expect(amount_row.get_by_label("Amount")).not_to_have_attribute("aria-invalid", "true")
    expect(undo).to_be_enabled()

    effects.get_by_label("Amount").fill("3")
    effects.get_by_role("button", name="Remove effect 1").click()
    expect(effects.locator(".ctl-item")).to_have_count(0)
    yaml_box = page.get_by_label("Everything else (YAML)")
    assert "effects" not in (yaml.safe_load(yaml_box.input_value()) or {})

    undo.click()
    expect(effects.locator(".ctl-item")).to_have_count(1)
    expect(effects.get_by_label("Amount")).to_have_value("3")
    assert yaml.safe_load(yaml_box.input_value())["effects"] == [{"type": "strength", "amount": 3}]
    expect(redo).to_be_enabled()
    redo.click()
    expect(effects.locator(".ctl-item")).to_have_count(0)
    expect(redo).to_be_disabled()
    # The keys do the same with the focus on a button of the form (a text box keeps its own).
    undo.focus()
    page.keyboard.press("Control+z")
    expect(effects.get_by_label("Amount")).to_have_value("3")
    page.keyboard.press("Control+Shift+z")
    expect(effects.locator(".ctl-item")).to_have_count(0)
    page.get_by_test_id("editor-tabs").get_by_role("button", name="Preview").click()
    expect(page.get_by_test_id("preview-errors")).not_to_contain_text("effects[0]")


def test_typing_in_the_yaml_is_one_step_to_undo(page: Page, editor: str) -> None:
    """Keystrokes in the YAML box within a second make one version; undone from the controls,
    the controls read the document before them again."""
    page.set_viewport_size({"width": 360, "height": 740})
    controls = open_editor(page, editor)
    effects = controls.locator('[data-part="effects"]')
    add(effects, "Wins ties")
    switch = page.get_by_test_id("view-switch")
    switch.get_by_role("button", name="YAML (advanced)").click()
    yaml_box = page.get_by_label("Everything else (YAML)")
    before = yaml_box.input_value()
    yaml_box.press("Control+End")
    yaml_box.press_sequentially("notes: bog\n", delay=20)
    switch.get_by_role("button", name="Controls").click()
    expect(controls.get_by_label("Notes")).to_have_value("bog")
    page.get_by_test_id("edit-history").get_by_role("button", name="Undo").click()
    assert yaml_box.input_value() == before
    expect(controls.get_by_label("Notes")).to_have_value("")
    expect(effects.locator(".ctl-item")).to_have_count(1)
