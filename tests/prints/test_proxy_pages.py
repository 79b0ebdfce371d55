"""The proxy page (options, live preview, PDF now or as a background job) and the API."""

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.http import QueryDict
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from prints import jobs as proxy_jobs
from prints.models import ProxyJob
from prints.views import preview_query
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


def test_a_bad_preview_answers_its_reason_as_text(client: Client, core: None) -> None:
    # The core set's fixture has "Net Troll"; one letter short is no card.
    response = client.get("/proxies/preview.png", {"cards": "Net Trol"})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    (reason,) = response.json()["errors"]
    assert "Net Trol'" in reason and "Net Troll" in reason


def test_a_preview_of_nothing_says_what_to_choose(client: Client, core: None) -> None:
    response = client.get("/proxies/preview.png")
    assert response.status_code == 400
    assert "choose what to print" in response.json()["errors"][0]


def test_the_page_says_in_text_why_there_is_no_preview(client: Client, core: None) -> None:
    response = client.get("/proxies/", {"cards": "Net Trol", "preview": "1"})
    assert response.status_code == 400
    page = response.content.decode()
    box = page[page.index('data-testid="proxy-preview-errors"') :]
    assert "Net Trol&#x27;; did you mean" in box[: box.index("</ul>")]
    img = page[page.index('id="proxy-preview"') :].split(">")[0]
    assert "src=" not in img and "hidden" in img


def test_a_blank_page_asks_for_a_choice_and_draws_nothing(client: Client, core: None) -> None:
    response = client.get("/proxies/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Choose sets, a pack, a query or cards" in page
    img = page[page.index('id="proxy-preview"') :].split(">")[0]
    assert "src=" not in img


def test_the_preview_address_never_carries_the_csrf_token(client: Client, core: None) -> None:
    response = client.get(
        "/proxies/",
        {"sets": "munchkin-core", "csrfmiddlewaretoken": "leaked-token", "preview": "1"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    img = page[page.index('id="proxy-preview"') :].split(">")[0]
    assert 'src="/proxies/preview.png?sets=munchkin-core"' in img
    assert "csrfmiddlewaretoken" not in img and "leaked-token" not in page


def test_update_the_preview_posts_and_keeps_the_token_out_of_every_address(
    client: Client, core: None
) -> None:
    response = client.post(
        "/proxies/",
        {"sets": "munchkin-core", "paper": "letter", "preview": "1", "csrfmiddlewaretoken": "t0k"},
    )
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    img = page[page.index('id="proxy-preview"') :].split(">")[0]
    assert "sets=munchkin-core" in img and "paper=letter" in img
    assert "csrfmiddlewaretoken" not in img and "t0k" not in page
    assert 'formmethod="get"' not in page  # no button sends the form, token and all, by GET
    assert not ProxyJob.objects.exists()


def test_preview_query_drops_the_token_and_keeps_the_options() -> None:
    data = QueryDict("csrfmiddlewaretoken=abc&sets=a&sets=b&paper=a4&preview=1")
    assert preview_query(data) == "sets=a&sets=b&paper=a4"


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
