"""Every page of the site on a 360 px phone and a 1280 px desktop (issue 17): no horizontal
overflow, no console or page error, no serious or critical axe-core violation.

The site is set up once for the module (the five fixture sets, checked; a user with a custom
set, a card, a card in the trash, a pack, a finished simulation, a proxy job) behind a live
server of its own, so the tests do not flush it between pages; the module's teardown empties
the database for the tests that follow. One browser, one context per size and session.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db import connection
from django.db.backends.base.creation import TEST_DATABASE_PREFIX
from django.test import Client
from django.test.utils import override_settings, setup_databases, teardown_databases
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.services import token_create
from catalog.models import Card, CardSet
from catalog.services import card_create, card_delete, card_write, set_create
from contributions.models import Proposal
from contributions.services import proposal_create
from packs import simulations
from packs.models import TtsExport
from packs.services import pack_build, pack_create
from prints.models import JobStatus, ProxyJob
from tests.e2e.sizes import by_tier
from tests.factories import monster_document
from validator.engine import parse_card

# One worker builds the site of this module once (--dist loadgroup keeps its tests together).
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("sweep")]

REPO = Path(__file__).resolve().parents[2]
AXE = Path(__file__).with_name("vendor") / "axe.min.js"
SCREENSHOTS = REPO / "test-results" / "screenshots"
SIZES = {"phone": (360, 740), "desktop": (1280, 800)}
USERNAME = "sweeper"
PASSWORD = "a-long-pass-phrase-42"
MONSTER = "/sets/munchkin-core/plutonium-dragon/"
ITEM = "/sets/munchkin-core/boots-of-butt-kicking/"
SEARCH = "/cards/?q=t%3Amonster+lvl%3E%3D10"


@dataclass(frozen=True)
class Visit:
    """One page of the sweep: its address, the status it answers, whether it is read as the
    logged-in user, and the name of its screenshot (none: no screenshot)."""

    path: str
    status: int = 200
    logged_in: bool = True
    screenshot: str = ""


@dataclass(frozen=True)
class Site:
    url: str
    pages: dict[str, Visit]
    session_cookie: str


def _pages(
    set_code: str,
    card_slug: str,
    pack_id: int,
    simulation_id: int,
    job_id: int,
    proposal_id: int = 0,
    tts_export_id: int = 0,
) -> dict[str, Visit]:
    edit = f"/author/sets/{set_code}/"
    return {
        "home": Visit("/", screenshot="home"),
        "set": Visit("/sets/munchkin-core/", screenshot="set"),
        "set-list": Visit("/sets/munchkin-core/?view=list"),
        "set-checklist": Visit("/sets/munchkin-core/?view=checklist"),
        "set-bad-order": Visit("/sets/munchkin-core/?order=sideways", status=400),
        "set-bad-page": Visit("/sets/munchkin-core/?page=abc", status=400),
        # Issue 18: an official set's gaps, and a card of uncertain name with its sources.
        "set-help": Visit("/sets/munchkin-super/help/", screenshot="set-help"),
        "card-provisional-name": Visit("/sets/munchkin-super/wimpy-thugs/"),
        # Issue 24: other printings' text and a dispute with both readings.
        "card-disputed": Visit("/sets/munchkin-core/halfling/"),
        "card-monster": Visit(MONSTER, screenshot="monster"),
        "card-item": Visit(ITEM, screenshot="item"),
        "card-history": Visit(MONSTER + "history/"),
        "card-scenarios": Visit(MONSTER + "scenarios/"),
        "custom-card": Visit(f"/sets/{set_code}/{card_slug}/"),
        "search-grid": Visit(SEARCH, screenshot="search"),
        "search-list": Visit(SEARCH + "&view=list"),
        "search-checklist": Visit(SEARCH + "&view=checklist"),
        "search-empty": Visit("/cards/?q=t%3Amonster+lvl%3E%3D99"),
        "search-bad-view": Visit(SEARCH + "&view=sideways", status=400),
        "syntax": Visit("/cards/syntax/"),
        "advanced": Visit("/cards/advanced/"),
        "signup": Visit("/accounts/signup/", logged_in=False),
        "login": Visit("/accounts/login/", logged_in=False),
        "profile": Visit(f"/accounts/{USERNAME}/"),
        "tokens": Visit("/accounts/tokens/"),
        "set-new": Visit("/author/sets/new/"),
        "set-edit": Visit(edit),
        "card-new": Visit(f"{edit}add-card/", screenshot="editor"),
        "card-edit": Visit(f"{edit}cards/{card_slug}/"),
        "trash": Visit("/author/trash/"),
        "import": Visit("/sets/import/"),
        "packs": Visit("/packs/"),
        "pack-new": Visit("/packs/new/"),
        "pack": Visit(f"/packs/{pack_id}/"),
        "simulation": Visit(f"/packs/{pack_id}/simulations/{simulation_id}/"),
        "tts-export": Visit(f"/packs/{pack_id}/tts/{tts_export_id}/"),
        "proxies": Visit("/proxies/"),
        "proxy-job": Visit(f"/proxies/jobs/{job_id}/"),
        "effect-language": Visit("/docs/effect-language/"),
        # Proposals (issue 18): the sweeper proposed Generic Guy's Treasures and curates
        # Super Munchkin; the card was saved since, so the proposal shows its three-way table.
        "propose-new": Visit("/sets/munchkin-super/propose/"),
        "propose-change": Visit("/sets/munchkin-super/cards/generic-guy/propose/"),
        "proposal": Visit(f"/proposals/{proposal_id}/", screenshot="proposal"),
        "proposal-edit": Visit(f"/proposals/{proposal_id}/edit/"),
        "proposals": Visit("/proposals/"),
        "review-queue": Visit("/proposals/review/"),
        "review-queue-bad-status": Visit("/proposals/review/?status=maybe", status=400),
        "not-found": Visit("/no-such-page/", status=404, logged_in=False),
    }


PAGE_NAMES = list(
    _pages("x", "x", 0, 0, 0)  # the names only; the addresses are made by the fixture
)


@pytest.fixture(scope="module")
def test_database(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The test database, made here when no test of the session asked pytest-django for one
    (its setup only makes the databases that marked tests name, and these tests are not marked:
    a mark would flush the site after every page)."""
    with django_db_blocker.unblock():
        name = str(connection.settings_dict["NAME"])
        test_name = connection.settings_dict["TEST"].get("NAME") or (
            name if name.startswith(TEST_DATABASE_PREFIX) else TEST_DATABASE_PREFIX + name
        )
        made = None
        if connection.settings_dict["NAME"] != test_name:
            # django-stubs type `aliases` as a mapping; Django reads it as a set of names.
            made = setup_databases(verbosity=0, interactive=False, aliases={"default"})  # type: ignore[arg-type]
        # Never write the sweep's users and sets into a developer's database.
        assert connection.settings_dict["NAME"] == test_name, connection.settings_dict["NAME"]
        try:
            yield
        finally:
            call_command("flush", interactive=False, verbosity=0)
            if made is not None:
                teardown_databases(made, verbosity=0)


def _stale_proposal(user: User) -> Proposal:
    """The user curates Super Munchkin and proposed Generic Guy's Treasures, and the card
    was saved since (Levels gained), so the proposal page shows the three-way table."""
    super_set = CardSet.objects.get(code="munchkin-super")
    super_set.curators = Group.objects.create(name="sweep-curators")
    super_set.save()
    user.groups.add(super_set.curators)
    guy = Card.objects.get(card_set=super_set, name="Generic Guy")
    proposal = proposal_create(
        proposer=user,
        card_set=super_set,
        document={**guy.document, "treasures": 4},
        evidence="My own copy of the card.",
        card=guy,
    )
    changed = parse_card({**guy.document, "levels_gained": 1})
    card_write(row=guy, card_set=super_set, typed=changed, actor=None, source="sweep")
    return proposal


@pytest.fixture(scope="module")
def site(test_database: None, django_db_blocker: Any) -> Iterator[Site]:
    with (
        django_db_blocker.unblock(),
        override_settings(
            TASKS={"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
        ),
    ):
        call_command("load_catalog", stdout=io.StringIO())
        call_command("validate_cards", stdout=io.StringIO())
        user = User.objects.create_user(USERNAME, password=PASSWORD)
        token_create(user=user, name="sweep script")  # the tokens page lists one
        card_set = set_create(owner=user, code="sweep", name="Sweep Test Set", visibility="public")
        card = card_create(card_set=card_set, actor=user, document=monster_document("Sweep Ogre"))
        gone = card_create(card_set=card_set, actor=user, document=monster_document("Lost Ogre"))
        card_delete(card=gone, actor=user)
        built = pack_build(actor=user, set_codes=["munchkin-core"], name="Sweep pack")
        pack = pack_create(actor=user, built=built)
        simulation = simulations.simulation_start(pack=pack, actor=user, games=20, players=4)
        simulation.refresh_from_db()
        assert simulation.status == "done", simulation.error
        job = ProxyJob.objects.create(owner=user, status=JobStatus.FAILED, error="Sheet too big")
        # A failed export (one that runs reloads itself; tests/e2e/test_tts_export.py has those).
        export = TtsExport.objects.create(
            pack=pack, owner=user, status=JobStatus.FAILED, total=150, error="The export failed"
        )
        proposal = _stale_proposal(user)
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        gone.refresh_from_db()
        assert gone.deleted_at is not None  # the trash has a card to show
        server = LiveServer("localhost")
        server._live_server_modified_settings.enable()
        try:
            yield Site(
                url=server.url,
                pages=_pages(
                    card_set.code,
                    card.slug,
                    pack.pk,
                    simulation.pk,
                    job.pk,
                    proposal.pk,
                    export.pk,
                ),
                session_cookie=cookie,
            )
        finally:
            server._live_server_modified_settings.disable()
            server.stop()


@pytest.fixture(scope="module")
def contexts(browser: Browser, site: Site) -> Iterator[dict[tuple[str, bool], BrowserContext]]:
    made: dict[tuple[str, bool], BrowserContext] = {}
    for size, (width, height) in SIZES.items():
        for logged_in in (False, True):
            context = browser.new_context(viewport={"width": width, "height": height})
            if logged_in:
                context.add_cookies(
                    [
                        {
                            "name": settings.SESSION_COOKIE_NAME,
                            "value": site.session_cookie,
                            "url": site.url,
                        }
                    ]
                )
            made[(size, logged_in)] = context
    yield made
    for context in made.values():
        context.close()


# The widest elements that reach past the viewport's right edge, with a selector for each.
OVERFLOW_JS = """() => {
  const width = window.innerWidth;
  const path = (el) => {
    const parts = [];
    for (let node = el; node && node.nodeType === 1 && parts.length < 4;
         node = node.parentElement) {
      let part = node.tagName.toLowerCase();
      if (node.id) { parts.unshift(part + '#' + node.id); break; }
      if (node.classList.length) part += '.' + [...node.classList].join('.');
      parts.unshift(part);
    }
    return parts.join(' > ');
  };
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1) wide.push([path(el), Math.round(box.right)]);
  }
  wide.sort((a, b) => b[1] - a[1]);
  return {scroll: document.documentElement.scrollWidth, inner: width, wide: wide.slice(0, 6)};
}"""

AXE_RUN_JS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return {
    checked: result.passes.length + result.violations.length,
    violations: result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({id: v.id, impact: v.impact,
                    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' '))})),
  };
}"""


# The header's script: it fetches name suggestions only as the player types.
QUIET_SCRIPT = re.compile(r"/static/catalog/site(\.[0-9a-f]+)?\.js$")


def _open(context: BrowserContext, url: str, visit: Visit) -> tuple[Page, list[str]]:
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        # The page's own status (404, 400) is reported as a failed resource: that one is expected.
        if visit.status != 200 and message.location.get("url") == url:
            return
        errors.append(f"console: {message.text} ({message.location.get('url')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    response = page.goto(url, wait_until="load")
    assert response is not None and response.status == visit.status, (
        f"{url} answered {response and response.status}, not {visit.status}"
    )
    # A page whose scripts fetch once it has loaded (a preview, a poll) is read after the
    # network has been quiet for half a second; a page with only the header's script, which
    # fetches nothing until the player types, is read at once (the wait cost half a second
    # per page for nothing).
    scripts = page.evaluate("() => [...document.scripts].map((s) => s.src)")
    if any(not QUIET_SCRIPT.search(src) for src in scripts):
        page.wait_for_load_state("networkidle")
    return page, errors


@pytest.mark.parametrize("size", by_tier(SIZES))
@pytest.mark.parametrize("name", PAGE_NAMES)
def test_page_fits_and_passes_axe(
    site: Site, contexts: dict[tuple[str, bool], BrowserContext], name: str, size: str
) -> None:
    visit = site.pages[name]
    url = site.url + visit.path
    page, errors = _open(contexts[(size, visit.logged_in)], url, visit)
    try:
        overflow = page.evaluate(OVERFLOW_JS)
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
        axe = page.evaluate(AXE_RUN_JS)
        # SWEEP_SCREENSHOTS=all keeps a picture of every page, for looking over a change.
        shot = visit.screenshot or (name if os.environ.get("SWEEP_SCREENSHOTS") == "all" else "")
        if shot:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=SCREENSHOTS / f"{shot}-{size}.png", full_page=True)
    finally:
        page.close()
    problems: list[str] = []
    if overflow["scroll"] > overflow["inner"]:
        problems.append(
            f"overflow: scrollWidth {overflow['scroll']} > innerWidth {overflow['inner']}; "
            f"widest: {json.dumps(overflow['wide'])}"
        )
    problems += errors
    # axe ran its rules (a page it could not read would otherwise pass with no violation).
    assert axe["checked"] > 10, axe
    problems += [f"axe {v['impact']} {v['id']}: {v['targets']}" for v in axe["violations"]]
    assert not problems, f"{name} at {size} ({visit.path}):\n" + "\n".join(problems)


def test_the_menu_opens_on_a_phone_and_the_search_box_works(
    site: Site, contexts: dict[tuple[str, bool], BrowserContext]
) -> None:
    page, errors = _open(contexts[("phone", False)], site.url + "/", Visit("/"))
    try:
        menu = page.get_by_role("button", name="Menu")
        sets_link = page.get_by_role("navigation", name="Main").get_by_role("link", name="Sets")
        login = page.get_by_role("link", name="Log in")
        expect(menu).to_be_visible()
        expect(menu).to_have_attribute("aria-expanded", "false")
        expect(sets_link).to_be_hidden()
        expect(login).to_be_hidden()
        menu.click()
        expect(menu).to_have_attribute("aria-expanded", "true")
        expect(sets_link).to_be_visible()
        expect(login).to_be_visible()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "menu-open-phone.png")
        page.keyboard.press("Escape")
        expect(sets_link).to_be_hidden()

        search = page.get_by_role("combobox", name="Search cards")
        expect(search).to_be_visible()
        box = search.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        # Its own row: wider than half the phone, which a box beside the links could not be.
        assert box["width"] > 180
        search.fill("t:monster lvl>=10")
        search.press("Enter")
        page.wait_for_url("**/cards/?q=*")
        assert "lvl" in page.url
        expect(page.get_by_role("combobox", name="Search cards")).to_have_value("t:monster lvl>=10")
    finally:
        page.close()
    assert errors == []


@pytest.mark.parametrize("logged_in", [False, True])
def test_the_links_stay_in_the_header_on_a_desktop(
    site: Site, contexts: dict[tuple[str, bool], BrowserContext], logged_in: bool
) -> None:
    page, errors = _open(contexts[("desktop", logged_in)], site.url + "/", Visit("/"))
    try:
        expect(page.get_by_role("button", name="Menu")).to_be_hidden()
        expect(page.get_by_role("link", name="Proxies")).to_be_visible()
        account = page.get_by_role("navigation", name="Account")
        expect(account.get_by_role("link").first).to_be_visible()
        header = page.locator(".site-header").bounding_box()
        search = page.get_by_role("combobox", name="Search cards").bounding_box()
        assert header is not None and search is not None
        assert header["height"] < 80  # one row at 1280 px, logged in or not
        assert search["width"] >= 200
    finally:
        page.close()
    assert errors == []


def test_without_javascript_the_phone_header_keeps_its_links_open(
    browser: Browser, site: Site
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site.url + "/")
        expect(page.get_by_role("button", name="Menu")).to_be_hidden()
        expect(page.get_by_role("link", name="Proxies")).to_be_visible()
        expect(page.get_by_role("link", name="Sign up")).to_be_visible()
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1] == 360
    finally:
        context.close()
