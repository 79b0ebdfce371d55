"""Playwright driving Debian's chromium against Django's live server."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path(os.environ.get("CARDSITE_CHROMIUM", "/usr/bin/chromium"))

# Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run where a
# loop is running unless told that it is safe, which it is here (one thread, tests only).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# On a closed network Chromium stalls on its background connections unless these are off.
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--disable-quic",
    "--metrics-recording-only",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"Chromium is not at {CHROMIUM}: run `make browser` (Debian: apt-get install chromium) "
            "or set CARDSITE_CHROMIUM"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
