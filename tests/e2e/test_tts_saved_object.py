"""The saved object alone (issue 25), in the browser on a 360 px phone and a desktop: the pack
page and the export's page offer it beside the zip with the Saved Objects folders; this
loopback site says that its addresses reach only this computer and hands out the saved object
pointed at a folder of the unpacked zip; the owner revokes a private pack's link and the page
says what that broke. Every page fits the screen and passes axe-core."""

import io
import json
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
from tests.factories import monster_document

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
QUERY = '!"Net Troll" or !"Crabs" or !"Boots of Butt-Kicking"'


@pytest.fixture
def site(live_server: LiveServer, settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }
    settings.SITE_URL = ""
    # The export is run by the test itself, not also by the thread backend.
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())


def export_of(live_server: LiveServer, *, private: bool) -> TtsExport:
    erin = User.objects.create_user("erin", password=PASSWORD)
    codes, query = ["munchkin-core"], QUERY
    if private:
        secret = set_create(owner=erin, code="secret", name="Secret")
        card_create(card_set=secret, actor=erin, document=monster_document("Hidden Hydra"))
        codes, query = [*codes, secret.code], f"{QUERY} or set:{secret.code}"
    built = pack_build(actor=erin, set_codes=codes, query=query, name="Small fry")
    pack = pack_create(actor=erin, built=built)
    # Made here rather than by the page's button (tests/e2e/test_tts_export.py clicks it),
    # with the address the page's request would give: this live server's.
    export = jobs.tts_export_start(pack=pack, actor=erin, base_url=live_server.url)
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == "done", export.error
    return export


def log_in(page: Page, live_server: LiveServer, next_path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.get_by_label("Username").fill("erin")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def fits_and_passes_axe(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    assert page.evaluate(SERIOUS) == []


def face_urls(saved: dict[str, Any]) -> list[str]:
    return sorted(
        {
            sheet[key]
            for state in saved["ObjectStates"]
            for sheet in state["CustomDeck"].values()
            for key in ("FaceURL", "BackURL")
        }
    )


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_the_saved_object_from_a_site_on_this_computer(
    page: Page, live_server: LiveServer, site: None, size: str
) -> None:
    export = export_of(live_server, private=False)
    page.set_viewport_size(SIZES[size])
    log_in(page, live_server, f"/packs/{export.pack_id}/")

    expect(page.get_by_role("heading", level=1)).to_have_text("Small fry")
    section = page.get_by_test_id("tts-section")
    expect(section.get_by_test_id("tts-saved-object")).to_have_text(
        "Tabletop Simulator: saved object"
    )
    expect(section.get_by_test_id("tts-download")).to_be_visible()
    expect(section.get_by_test_id("tts-folders")).to_contain_text("Saved Objects")
    expect(section.get_by_test_id("tts-local")).to_contain_text(
        "an address that reaches only this computer"
    )
    fits_and_passes_axe(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    section.screenshot(path=SCREENSHOTS / f"tts-saved-object-{size}.png")

    with page.expect_download() as waiting:
        section.get_by_test_id("tts-saved-object").click()
    saved = json.loads(Path(waiting.value.path()).read_text("utf-8"))
    urls = face_urls(saved)
    assert all(url.startswith(f"{live_server.url}/tts/sheets/") for url in urls)
    image = page.request.get(urls[0])
    assert image.status == 200 and image.headers["content-type"] == "image/jpeg"

    # A folder that is not a full path is refused on its field, the page still fitting.
    section.get_by_label("Folder where you unpacked the zip").fill("Downloads\\small-fry")
    section.get_by_test_id("tts-folder-submit").click()
    expect(page.get_by_test_id("tts-folder-error")).to_contain_text("is not a full path")
    fits_and_passes_axe(page)

    field = page.get_by_label("Folder where you unpacked the zip")
    field.fill("C:\\Users\\erin\\Downloads\\small-fry-tts")
    with page.expect_download() as waiting:
        page.get_by_test_id("tts-folder-submit").click()
    local = json.loads(Path(waiting.value.path()).read_text("utf-8"))
    assert all(
        url.startswith("file:///C:/Users/erin/Downloads/small-fry-tts/") for url in face_urls(local)
    )


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_the_owner_revokes_a_private_packs_link(
    page: Page, live_server: LiveServer, site: None, size: str
) -> None:
    export = export_of(live_server, private=True)
    page.set_viewport_size(SIZES[size])
    log_in(page, live_server, f"/packs/{export.pack_id}/tts/{export.pk}/")

    expect(page.get_by_test_id("tts-access")).to_contain_text("secret link")
    with page.expect_download() as waiting:
        page.get_by_test_id("tts-saved-object").click()
    urls = face_urls(json.loads(Path(waiting.value.path()).read_text("utf-8")))
    assert all(f"/tts/sheets/{export.token}/" in url for url in urls)
    assert page.request.get(urls[0]).status == 200
    fits_and_passes_axe(page)

    page.get_by_test_id("tts-revoke").click()
    expect(page.get_by_test_id("tts-revoked")).to_contain_text(
        "can no longer load their images (the site answers"
    )
    expect(page.get_by_test_id("tts-saved-object")).to_have_count(0)
    assert page.request.get(urls[0]).status == 404
    fits_and_passes_axe(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"tts-revoked-{size}.png", full_page=True)

    page.get_by_test_id("tts-renew").click()
    expect(page.get_by_test_id("tts-saved-object")).to_be_visible()
    assert page.request.get(urls[0]).status == 404  # the old link stays dead
