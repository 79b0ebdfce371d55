"""The table's cards and buttons in the browser (issue 21): the hand and the cards in play
shown with the site's faces, and the moves beyond a turn's steps (equip and unequip as
buttons, giving an item away by its form under "Careful"), at 360 px and 1280 px, each page
fitting the screen and passing axe-core."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier
from tests.e2e.test_play import SIZES, fits_and_passes_axe
from validator.engine import describe_move, legal_moves, library_from_set_files, new_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server: LiveServer) -> str:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return str(live_server.url)


def seed_with_an_item_to_play() -> tuple[int, str]:
    """A seed whose deal gives the first player an item they may put in play at once (the
    engine's own legal moves say which), and that item's name."""
    cards = tuple(library_from_set_files(["munchkin-core"]).cards())
    for seed in range(200):
        table = new_table(cards, seats=["person", "bot"], seed=seed)
        hand = {c.uid: c for c in table.game.players[0].hand}
        for move in legal_moves(table, 0):
            card = hand.get(move.get("play", 0))
            if card is not None and card.kind == "item" and set(move) == {"play"}:
                assert describe_move(table, 0, move) == f"Play {card.name}"
                return seed, card.name
    raise AssertionError("no seed in 0..199 deals an item to play")


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_faces_and_the_item_buttons(page: Page, site: str, size: str) -> None:
    seed, item = seed_with_an_item_to_play()
    page.set_viewport_size(SIZES[size])
    page.goto(site + "/play/new/")
    page.get_by_label("Munchkin", exact=True).check()
    page.get_by_label("Seed").fill(str(seed))
    page.get_by_role("button", name="Deal").click()
    page.get_by_test_id("seat-link-0").click()

    faces = page.get_by_test_id("hand").locator("img")
    expect(faces).to_have_count(8)
    faces.first.scroll_into_view_if_needed()
    # The face really loads (a lazy image the browser fetched and decoded).
    page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=faces.first.element_handle()
    )
    box = faces.first.bounding_box()
    # Three faces across a phone, each at least ~110 px wide (issue 37).
    assert box is not None and 108 <= box["width"] <= SIZES[size]["width"] / 3
    fits_and_passes_axe(page)

    moves = page.get_by_test_id("moves")
    moves.get_by_role("button", name=f"Play {item}", exact=True).click()
    expect(moves.get_by_role("button", name=f"Unequip {item}", exact=True)).to_be_visible()
    # Giving items away is set apart, under "Careful": tick the items, choose the player.
    give = page.get_by_test_id("group-careful").get_by_test_id("form-give")
    expect(give).to_be_visible()
    players = page.get_by_test_id("players")
    expect(players.locator("li", has_text="P1 (you)").locator("img")).not_to_have_count(0)
    give.get_by_label(item, exact=True).check()
    give.get_by_label("To").select_option(label="P2")
    give.get_by_role("button", name="Give the items ticked").click()
    expect(page.get_by_test_id("log")).to_contain_text(f"P1 gives {item} to P2")
    expect(players.locator("> li").nth(1)).to_contain_text(item)
    fits_and_passes_axe(page)
