"""The table reads at a glance (issue 37), in the browser: during a fight the fight (its
monster's face and both strengths) comes first, above the moves and within the first screen,
at 360 x 740 and 1280 x 800; a card opens large and closes; a form sends the move chosen;
the page follows another seat's move in place, without reloading. Each page passes axe-core.

The games are dealt through the API from this process (the live server shares its
database), by seeds whose first door is a monster, found by dealing rather than assumed."""

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from play.models import Game
from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier
from tests.e2e.test_play import SIZES, fits_and_passes_axe

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GAMES = "/api/games/"
SHOTS = Path("/tmp/play-layout")


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


def api_move(api: APIClient, game: dict[str, Any], seat: int, move: dict[str, Any]) -> Any:
    body = {"seat": game["seats"][seat]["token"], "move": move}
    return api.post(f"{GAMES}{game['id']}/moves/", body, format="json")


def deal_a_fight(api: APIClient, seats: list[str]) -> dict[str, Any]:
    """A game of the core set whose first door (kicked by P1) is a monster: P1 fights it."""
    for seed in range(60):
        body = {"sets": ["munchkin-core"], "seats": [{"kind": k} for k in seats], "seed": seed}
        answer = api.post(GAMES, body, format="json")
        assert answer.status_code == 201, answer.content
        game: dict[str, Any] = answer.json()
        kicked = api_move(api, game, 0, {"kick_door": True})
        assert kicked.status_code == 200, kicked.content
        if kicked.json()["combat"] is not None:
            return game
    raise AssertionError("no seed in 0..59 opens the first door on a monster")


def seat_url(site: str, game: dict[str, Any], seat: int) -> str:
    return f"{site}/play/{game['id']}/?seat={game['seats'][seat]['token']}"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_the_fight_comes_first_within_the_first_screen(page: Page, site: str, size: str) -> None:
    game = deal_a_fight(APIClient(), ["person", "person"])
    page.set_viewport_size(SIZES[size])
    page.goto(seat_url(site, game, 0))
    combat = page.get_by_test_id("combat")
    expect(combat).to_be_visible()
    monster = combat.locator(".monster img").first
    page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=monster.element_handle()
    )
    shot(page, f"fight-{size}")
    fight_box = combat.bounding_box()
    strengths = page.get_by_test_id("strengths").bounding_box()
    first_move = page.get_by_test_id("moves").get_by_role("button").first.bounding_box()
    face = monster.bounding_box()
    assert fight_box and strengths and first_move and face
    height = SIZES[size]["height"]
    # The fight's top and both strengths on the first screen, above the first move button.
    assert fight_box["y"] < first_move["y"]
    assert fight_box["y"] >= 0 and strengths["y"] + strengths["height"] <= height
    # The monster's face starts on the first screen too, and is big enough to read.
    assert face["y"] < height and face["width"] >= 140
    assert page.get_by_test_id("side-strength").inner_text().strip().isdigit()
    assert page.get_by_test_id("status").inner_text().startswith("Your move: you are fighting")
    fits_and_passes_axe(page)
    # The moves are grouped under headings: the fight's own first.
    headings = page.get_by_test_id("moves").locator("h3").all_text_contents()
    assert headings[0] == "Fight", headings
    hand = page.get_by_test_id("hand").locator("img")
    hand.first.scroll_into_view_if_needed()
    width = hand.first.bounding_box()
    assert width is not None and width["width"] >= 108
    shot(page, f"hand-{size}")


def test_a_card_opens_large_and_closes(page: Page, site: str) -> None:
    game = deal_a_fight(APIClient(), ["person", "bot"])
    page.set_viewport_size(SIZES["phone"])
    page.goto(seat_url(site, game, 0))
    card = page.get_by_test_id("hand").locator("a.card-link").first
    name = card.locator(".card-name").inner_text()
    card.click()
    dialog = page.get_by_test_id("card-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", level=2)).to_have_text(name)
    image = dialog.locator("img")
    page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )
    box = image.bounding_box()
    assert box is not None and box["width"] >= 300  # the face at the phone's width
    expect(dialog.get_by_role("link", name="Open the card's page")).to_have_attribute(
        "href", card.get_attribute("href") or ""
    )
    expect(dialog.locator(".card-dialog-text")).not_to_be_empty()
    shot(page, "card-phone")
    fits_and_passes_axe(page)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # From the keyboard: the focus is back on the card; Enter opens it, Close closes it.
    expect(card).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    # The monster in the fight opens too.
    page.get_by_test_id("combat").locator("a.card-link").first.click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_asking_for_help_by_the_form_sends_the_move_chosen(page: Page, site: str) -> None:
    game = deal_a_fight(APIClient(), ["person", "person", "person"])
    page.set_viewport_size(SIZES["phone"])
    page.goto(seat_url(site, game, 0))
    form = page.get_by_test_id("form-ask")
    form.get_by_label("Ask").select_option(label="P3")
    form.get_by_label("Treasures offered").fill("1")
    fits_and_passes_axe(page)
    form.get_by_role("button", name="Ask for help").click()
    expect(page.get_by_test_id("help-request")).to_contain_text(
        "P1 asked P3 for help, offering 1 Treasure"
    )
    assert Game.objects.get(pk=game["id"]).moves[-1] == [0, {"ask_for_help": "P3", "treasures": 1}]


def test_the_page_follows_another_seat_in_place(page: Page, site: str) -> None:
    api = APIClient()
    game = deal_a_fight(api, ["person", "person"])
    page.set_viewport_size(SIZES["phone"])
    page.goto(seat_url(site, game, 1))
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Waiting for P1: P1 is fighting")
    expect(page.get_by_test_id("help-request")).to_have_count(0)
    page.evaluate("window.stillThisPage = 'yes'")
    page.get_by_test_id("hand").locator("a.card-link").first.click()  # a card left open
    asked = api_move(api, game, 0, {"ask_for_help": "P2", "treasures": 1})
    assert asked.status_code == 200, asked.content
    request = page.get_by_test_id("help-request")
    expect(request).to_contain_text("P1 asks you for help against")
    expect(request).to_contain_text("for 1 Treasure.")
    expect(status).to_contain_text("Your move: P1 asks you for help")
    expect(page.get_by_test_id("announce")).to_contain_text("Your move")
    expect(page.get_by_test_id("log")).to_contain_text("P1 asks P2 for help")
    assert page.evaluate("window.stillThisPage") == "yes"  # swapped in place, not reloaded
    expect(page.get_by_test_id("card-dialog")).to_be_visible()  # still open
    page.keyboard.press("Escape")
    answer = page.get_by_test_id("group-answer")
    expect(answer.get_by_role("button", name="Help P1")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "asked-phone")
    fits_and_passes_axe(page)
