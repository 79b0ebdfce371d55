"""A designer exports a pack for Tabletop Simulator from its page (issue 20): the button starts
the export in the background, the job page shows it running and then the download, on a
360 px phone and a desktop, each page fitting the screen and passing axe-core."""

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from packs.models import Pack
from packs.services import pack_build, pack_create
from tests.e2e.sizes import by_tier

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 360, "height": 740},
    "desktop": {"width": 1280, "height": 800},
}
SERIOUS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))"""
PASSWORD = "a-long-pass-phrase-42"


@pytest.fixture
def pack(live_server: LiveServer, settings: Any, tmp_path: Path) -> Pack:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }
    call_command("load_catalog", stdout=io.StringIO())
    erin = User.objects.create_user("erin", password=PASSWORD)
    built = pack_build(
        actor=erin, set_codes=["munchkin-core"], query="t:monster level<=2", name="Small fry"
    )
    return pack_create(actor=erin, built=built)


def fits_and_passes_axe(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    assert page.evaluate(SERIOUS) == []


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_export_a_pack_for_tabletop_simulator(
    page: Page, live_server: LiveServer, pack: Pack, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/accounts/login/?next=/packs/{pack.pk}/")
    page.get_by_label("Username").fill("erin")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Small fry")
    section = page.get_by_test_id("tts-section")
    expect(section.get_by_role("heading")).to_have_text("Tabletop Simulator")
    fits_and_passes_axe(page)
    page.get_by_test_id("tts-start").click()

    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Tabletop Simulator export of Small fry"
    )
    # The page reloads itself while the export runs in the background.
    link = page.get_by_test_id("tts-download")
    expect(link).to_be_visible(timeout=120_000)
    expect(page.get_by_test_id("tts-status")).to_contain_text("Done")
    fits_and_passes_axe(page)
    with page.expect_download() as waiting:
        link.click()
    download = waiting.value
    assert download.suggested_filename == "small-fry-tts.zip"
    with zipfile.ZipFile(download.path()) as archive:
        assert {"README.txt", "small-fry.json", "door-sheet-1.jpg"} <= set(archive.namelist())
