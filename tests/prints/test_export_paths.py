"""Every prints export is chosen by identifier (catalog.exports.exporter_get): with a stand-in
registered as "proxies" or "card-face", the proxy page's PDF made at once, the API's, the
background job's, and the card face the pages show are all the stand-in's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from catalog.models import Card
from prints import jobs
from prints.models import JobStatus
from prints.selectors import face_key
from prints.sheets import ProxyOptions
from tests.exporters import StandIn

pytestmark = pytest.mark.django_db

StandInMaker = Callable[..., type[StandIn]]
SMALL = {"cards": "Net Troll\nMaul Rat"}


@pytest.fixture
def isolated(settings: Any, tmp_path: Path) -> None:
    """This test's own media and faces cache; jobs stay queued until run here."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


def test_the_proxy_page_makes_its_pdf_with_the_registered_exporter(
    core_catalog: None, client: Client, isolated: None, stand_in: StandInMaker
) -> None:
    made = stand_in("proxies", content_type="application/pdf", filename="stand-in.pdf")
    response = client.post("/proxies/", SMALL)
    assert response.status_code == 200 and response.content == StandIn.content
    assert response["Content-Disposition"] == 'attachment; filename="stand-in.pdf"'
    (call,) = made.calls
    assert sorted(card.name for card in call["cards"]) == ["Maul Rat", "Net Troll"]
    assert isinstance(call["options"], ProxyOptions)


def test_the_proxy_api_makes_its_pdf_with_the_registered_exporter(
    core_catalog: None, isolated: None, stand_in: StandInMaker
) -> None:
    made = stand_in("proxies", content_type="application/pdf")
    response = APIClient().post("/api/proxies/", {"cards": ["Net Troll"]}, format="json")
    assert response.status_code == 200 and response.content == StandIn.content
    assert [card.name for card in made.calls[0]["cards"]] == ["Net Troll"]


def test_the_proxy_job_makes_its_pdf_with_the_registered_exporter(
    core_catalog: None, alice: User, isolated: None, stand_in: StandInMaker
) -> None:
    made = stand_in("proxies", filename="stand-in.pdf")
    selection = jobs.ProxySelection(names=["Net Troll", "Maul Rat"])
    job = jobs.proxy_job_start(selection=selection, options=ProxyOptions(), actor=alice)
    jobs.proxy_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == JobStatus.DONE and job.pdf.read() == StandIn.content
    assert str(job.pdf.name).endswith(f"job-{job.pk}-stand-in.pdf")
    assert set(made.calls[0]) == {"cards", "options", "progress"}


def test_a_card_face_is_drawn_by_the_registered_exporter(
    core_catalog: None, client: Client, isolated: None, stand_in: StandInMaker
) -> None:
    made = stand_in("card-face", content_type="image/png")
    troll = Card.objects.select_related("card_set").get(name="Net Troll")
    response = client.get(f"/faces/{troll.pk}/{face_key(troll)}.png")
    assert response.status_code == 200 and response.content == StandIn.content
    (call,) = made.calls
    assert (call["card"].name, call["set_code"], call["slug"], call["art"]) == (
        "Net Troll",
        "munchkin-core",
        troll.slug,
        None,
    )
