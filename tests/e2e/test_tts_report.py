"""The export's report in the browser (issue 36, item 4): the pack page's Tabletop Simulator
section and the export's page list the cards exported with stats not known yet (which ones)
and the cards left out (and why), on a 360 px phone and a desktop, each page fitting the
screen and passing axe-core."""

import io
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from catalog.services.cards import card_create
from catalog.services.sets import set_create
from packs.models import TtsExport
from packs.services import pack_build, pack_create
from packs.tts import jobs
from tests.conftest import CORE_SET
from tests.e2e.sizes import by_tier
from tests.packs.test_tts_reports import LAB_CARDS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"
SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 360, "height": 740},
    "desktop": {"width": 1280, "height": 800},
}
SERIOUS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))"""
PASSWORD = "a-long-pass-phrase-42"


@pytest.fixture
def export(live_server: LiveServer, settings: Any, tmp_path: Path) -> TtsExport:
    """A finished export of two core cards and erin's set of little-known cards."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }
    settings.SITE_URL = ""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    erin = User.objects.create_user("erin", password=PASSWORD)
    lab = set_create(owner=erin, code="lab", name="Lab")
    for document in LAB_CARDS:
        card_create(card_set=lab, actor=erin, document=document)
    built = pack_build(
        actor=erin,
        set_codes=["munchkin-core", lab.code],
        query=f'!"Net Troll" or !"Boots of Butt-Kicking" or set:{lab.code}',
        name="Lab pack",
    )
    pack = pack_create(actor=erin, built=built)
    made = jobs.tts_export_start(pack=pack, actor=erin, base_url=live_server.url)
    jobs.tts_export_run(export_id=made.pk)
    made.refresh_from_db()
    assert made.status == "done", made.error
    return made


def fits_and_passes_axe(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    assert page.evaluate(SERIOUS) == []


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_the_pack_page_shows_what_the_export_holds(
    page: Page, live_server: LiveServer, export: TtsExport, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/accounts/login/?next=/packs/{export.pack_id}/")
    page.get_by_label("Username").fill("erin")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Lab pack")
    report = page.get_by_test_id("tts-section").get_by_test_id("tts-report")
    expect(report.get_by_role("heading")).to_have_text("What the export holds")
    expect(report.get_by_test_id("tts-left-out-count")).to_have_text(
        "2 cards of the pack are not in the export:"
    )
    left_out = report.get_by_test_id("tts-left-out").get_by_role("listitem")
    expect(left_out).to_have_count(2)
    expect(left_out.filter(has_text="Lab Director")).to_contain_text(
        "in neither deck: a Role card, dealt to a player apart from the Door and Treasure decks"
    )
    expect(left_out.filter(has_text="Nameless Thing")).to_contain_text(
        "in neither deck: which deck it belongs to (Door or Treasure) is not known yet"
    )
    unknown = report.get_by_test_id("tts-unknown-stats").get_by_role("listitem")
    expect(unknown).to_have_count(2)
    expect(unknown.filter(has_text="Mystery Mole")).to_contain_text("Door): level, treasures")
    expect(unknown.filter(has_text="Odd Trinket")).to_contain_text("Treasure): bonus, slot, gold")
    fits_and_passes_axe(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    report.screenshot(path=SCREENSHOTS / f"tts-report-{size}.png")

    page.goto(f"{live_server.url}/packs/{export.pack_id}/tts/{export.pk}/")
    expect(page.get_by_test_id("tts-report").get_by_role("heading", level=2)).to_have_text(
        "What the export holds"
    )
    expect(page.get_by_test_id("tts-unknown-count")).to_contain_text(
        "2 exported cards have stats not known yet"
    )
    fits_and_passes_axe(page)
