"""The proxy page's live preview follows the options as they change; what cannot be drawn is
said in text beside it, and no preview address carries the CSRF token."""

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, Request, expect
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CORE_SET

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def proxies_page(page: Page, live_server: LiveServer) -> Page:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    page.goto(str(live_server.url) + "/proxies/")
    return page


def preview_size(page: Page, replacing: str = "") -> tuple[int, int, str]:
    """The preview's pixel size and address, once an image other than `replacing` (the one
    shown before a change) is in place and decoded: the old one's size is never read."""
    page.wait_for_function(
        "old => { const i = document.getElementById('proxy-preview');"
        " return !i.hidden && i.src !== '' && i.src !== old; }",
        arg=replacing,
    )
    size = page.get_by_test_id("proxy-preview").evaluate(
        "async i => { await i.decode(); return [i.naturalWidth, i.naturalHeight, i.src]; }"
    )
    return int(size[0]), int(size[1]), str(size[2])


def test_the_preview_follows_the_options(proxies_page: Page) -> None:
    page = proxies_page
    page.get_by_label("Munchkin", exact=True).check()
    preview = page.get_by_test_id("proxy-preview")
    expect(preview).to_have_attribute("data-query", re.compile(r"sets=munchkin-core"))
    width, height, portrait = preview_size(page)
    assert width < height  # A4 portrait
    page.get_by_label("Orientation").select_option("landscape")
    expect(preview).to_have_attribute("data-query", re.compile(r"orientation=landscape"))
    width, height, _ = preview_size(page, replacing=portrait)
    assert width > height


def test_preview_errors_are_text_beside_it_and_clear_when_fixed(proxies_page: Page) -> None:
    page = proxies_page
    status = page.get_by_test_id("proxy-preview-status")
    expect(status).to_have_attribute("aria-live", "polite")
    expect(status).to_contain_text("Choose sets, a pack, a query or cards")
    # The core set's fixture spells it "Net Troll".
    page.get_by_label("Or these cards").fill("Net Trol")
    errors = page.get_by_test_id("proxy-preview-errors")
    expect(errors).to_contain_text("unknown card 'Net Trol'; did you mean 'Net Troll'?")
    expect(page.get_by_test_id("proxy-preview")).to_be_hidden()
    page.get_by_label("Or these cards").fill("Net Troll")
    expect(errors).to_have_count(0)
    width, height, _ = preview_size(page)
    assert width < height
    expect(status).to_have_text("")


def test_no_preview_address_carries_the_csrf_token(proxies_page: Page) -> None:
    page = proxies_page
    asked: list[str] = []

    def seen(request: Request) -> None:
        if "/proxies/" in request.url and request.method == "GET":
            asked.append(request.url)

    page.on("request", seen)
    page.get_by_label("Munchkin", exact=True).check()
    _, _, a4 = preview_size(page)
    page.locator("#id_paper").select_option("letter")
    expect(page.get_by_test_id("proxy-preview")).to_have_attribute(
        "data-query", re.compile("paper=letter")
    )
    page.get_by_test_id("update-preview").click()  # the button for readers without scripts
    expect(page.get_by_role("heading", level=1)).to_have_text("Printable proxies")
    preview_size(page, replacing=a4)
    previews = [url for url in asked if "preview.png" in url]
    assert len(previews) >= 3, asked
    assert not any("csrfmiddlewaretoken" in url for url in [*asked, page.url]), asked
    src = page.get_by_test_id("proxy-preview").get_attribute("src") or ""
    assert "paper=letter" in src and "csrfmiddlewaretoken" not in src
