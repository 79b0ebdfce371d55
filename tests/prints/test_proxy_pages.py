"""The proxy page (options, live preview, PDF now or as a background job) and the API."""

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from prints import jobs as proxy_jobs
from prints.models import ProxyJob
from tests.conftest import CORE_SET
from tests.factories import monster_document

pytestmark = pytest.mark.django_db

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def core(db: None) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())


def pages_of(pdf: bytes) -> int:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return len(document.pages)


def test_the_page_offers_every_option(client: Client, core: None) -> None:
    page = client.get("/proxies/").content.decode()
    for name in ("paper", "orientation", "card_size", "bleed", "gutter", "margin", "cut_marks"):
        assert f'name="{name}"' in page
    assert 'data-testid="proxy-preview"' in page and "proxies.js" in page


def test_the_preview_is_the_first_sheet_as_png(client: Client, core: None) -> None:
    response = client.get("/proxies/", {"sets": "munchkin-core", "preview": "1"})
    assert response.status_code == 200
    preview = client.get("/proxies/preview.png", {"sets": "munchkin-core", "paper": "a4"})
    assert response.status_code == 200 and preview["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(preview.content))
    assert image.width < image.height  # A4 portrait
    landscape = client.get(
        "/proxies/preview.png", {"sets": "munchkin-core", "paper": "a4", "orientation": "landscape"}
    )
    wide = Image.open(io.BytesIO(landscape.content))
    assert wide.width > wide.height


def test_a_bad_preview_draws_its_reason(client: Client, core: None) -> None:
    response = client.get("/proxies/preview.png", {"cards": "Net Trol"})
    assert response.status_code == 400 and response["Content-Type"] == "image/png"


def test_a_small_selection_downloads_at_once(client: Client, core: None) -> None:
    response = client.post(
        "/proxies/",
        {
            "cards": "Net Troll\nMaul Rat",
            "paper": "letter",
            "cut_marks": "lines",
            "instructions": "on",
        },
    )
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert pages_of(response.content) == 2  # the 100% page, then one page of Door faces
    assert response["Cache-Control"] == "private"  # it may hold the user's own sets


def test_bad_options_are_shown_and_nothing_is_made(client: Client, core: None) -> None:
    response = client.post("/proxies/", {"sets": "munchkin-core", "bleed": "3.5"})
    assert response.status_code == 400
    assert "bleed" in response.content.decode().lower()
    response = client.post("/proxies/", {"cards": "Net Trol"})
    assert response.status_code == 400 and "Net Troll" in response.content.decode()
    response = client.post("/proxies/", {"paper": "a4"})
    assert response.status_code == 400 and "choose what to print" in response.content.decode()


def test_a_large_selection_becomes_a_background_job(
    client: Client,
    core: None,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.TASKS = IMMEDIATE
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr(proxy_jobs, "SYNC_COPIES", 5)
    anonymous = client.post("/proxies/", {"sets": "munchkin-core"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    client.force_login(User.objects.create_user("carol"))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/proxies/", {"cards": "Net Troll\nMaul Rat\nCrabs\nLame Goblin\nPotted Plant\nBullrog"}
        )
    # The job ran inline (immediate backend) once the request's transaction committed.
    job = ProxyJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/proxies/jobs/{job.pk}/"
    job.refresh_from_db()
    assert job.status == "done", job.error
    assert job.done == job.total == 6
    page = client.get(response["Location"]).content.decode()
    assert 'data-testid="proxy-download"' in page and "refresh" not in page
    pdf = client.get(f"/proxies/jobs/{job.pk}/proxies.pdf")
    assert pdf.content.startswith(b"%PDF")
    assert pdf["Cache-Control"] == "private"  # the job's owner's own file
    other = Client()
    other.force_login(User.objects.create_user("dave"))
    assert other.get(f"/proxies/jobs/{job.pk}/").status_code == 404


def test_the_api_returns_the_pdf(core: None) -> None:
    client = APIClient()
    response = client.post(
        "/api/proxies/",
        {"cards": ["Net Troll", "Kneepads of Allure"], "backs": "pages"},
        format="json",
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert pages_of(response.content) >= 4  # a Door page and a Treasure page, each with backs
    assert response["Cache-Control"] == "private"
    bad = client.post("/api/proxies/", {"cards": ["Net Troll"], "bleed": 9}, format="json").json()
    assert bad["status"] == 400 and bad["errors"][0]["path"] == "bleed"
    unknown = client.post("/api/proxies/", {"cards": ["Net Trol"]}, format="json").json()
    assert unknown["status"] == 400 and "Net Troll" in unknown["errors"][0]["message"]


@pytest.mark.parametrize(
    "body",
    [
        {"sets": ["alice-unlistd"]},
        {"sets": ["alice-privat"]},
        {"cards": ["Net Troll"]},  # in the core set and in alice's hidden sets
        {"cards": ["Hidden Ogre"]},  # only in alice's hidden sets
        {"cards": ["Hiden Ogre"]},
    ],
)
def test_proxies_never_name_anothers_hidden_set(
    core: None, alice: User, bob: User, body: dict[str, Any]
) -> None:
    for visibility in ("unlisted", "private"):
        card_set = set_create(
            owner=alice, code=f"alice-{visibility}", name=visibility, visibility=visibility
        )
        for name in ("Net Troll", "Hidden Ogre"):
            card_create(card_set=card_set, actor=alice, document=monster_document(name))
    client = APIClient()
    client.force_login(bob)

    def answer() -> tuple[int, bytes]:
        response = client.post("/api/proxies/", {**body, "paper": "a4"}, format="json")
        return response.status_code, response.content

    with_them = answer()
    assert b"alice-unlisted" not in with_them[1] and b"alice-private" not in with_them[1]
    Card.everything.filter(card_set__owner=alice).delete()
    CardSet.everything.filter(owner=alice).delete()
    assert with_them == answer()  # the same as if alice's sets did not exist


def test_a_card_of_an_unlisted_set_is_printed_by_its_code(
    core: None, alice: User, bob: User
) -> None:
    card_set = set_create(owner=alice, code="alice-unlisted", name="U", visibility="unlisted")
    card_create(card_set=card_set, actor=alice, document=monster_document("Hidden Ogre"))
    client = APIClient()
    client.force_login(bob)
    response = client.post(
        "/api/proxies/", {"cards": ["Hidden Ogre@alice-unlisted"]}, format="json"
    )
    assert response.status_code == 200, response.content  # its code is like its link


def test_the_preview_says_how_many_faces_it_draws(
    client: Client, core: None, settings: Any
) -> None:
    settings.PROXY_PREVIEW_MAX_CARDS = 7
    page = client.get("/proxies/").content.decode()
    assert "draws the first 7 faces" in page
