"""The proxy page's live preview follows the options as they change."""

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.conftest import CORE_SET

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def preview_size(page: Page) -> tuple[int, int]:
    page.wait_for_function(
        "() => { const i = document.getElementById('proxy-preview');"
        " return i.complete && i.naturalWidth > 0; }"
    )
    size = page.get_by_test_id("proxy-preview").evaluate("i => [i.naturalWidth, i.naturalHeight]")
    return int(size[0]), int(size[1])


def test_the_preview_follows_the_options(page: Page, live_server: LiveServer) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    page.goto(str(live_server.url) + "/proxies/")
    page.get_by_label("Munchkin", exact=True).check()
    preview = page.get_by_test_id("proxy-preview")
    expect(preview).to_have_attribute("src", re.compile(r"sets=munchkin-core"))
    width, height = preview_size(page)
    assert width < height  # A4 portrait
    page.get_by_label("Orientation").select_option("landscape")
    expect(preview).to_have_attribute("src", re.compile(r"orientation=landscape"))
    page.wait_for_timeout(300)
    width, height = preview_size(page)
    assert width > height
