"""The proxy preview's bounds (issue 15, item 4): a largest custom paper, a bounded picture with
at most PROXY_PREVIEW_MAX_CARDS faces, and a rate per user and per address."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from prints import proxies
from prints.jobs import MAX_COPIES
from prints.models import ProxyJob
from prints.proxies import PLACEHOLDER_FILL, PREVIEW_MAX_SIDE

pytestmark = pytest.mark.django_db

PREVIEW = "/proxies/preview.png"
HUGE = {"sets": "munchkin-core", "paper": "custom", "paper_size": "1500x1500"}


def refusal(response: Any) -> list[str]:
    """What a refused preview says: its JSON reasons, as the page shows them in text."""
    assert response["Content-Type"] == "application/json"
    errors: list[str] = response.json()["errors"]
    return errors


@pytest.fixture
def faces_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = proxies.face_jpeg

    def spy(card: Any, **kwargs: Any) -> bytes:
        seen.append(card.name)
        return real(card, **kwargs)

    monkeypatch.setattr(proxies, "face_jpeg", spy)
    return seen


def test_a_paper_past_the_largest_is_refused_everywhere_naming_the_limit(
    client: Client, core_catalog: None, settings: Any
) -> None:
    settings.PROXY_PAPER_MAX_MM = 500
    expected = "each side may be at most 500 mm"
    preview = client.get(PREVIEW, HUGE)
    assert preview.status_code == 400
    assert any(expected in line for line in refusal(preview)), refusal(preview)

    page = client.post("/proxies/", HUGE)
    assert page.status_code == 400 and expected in page.content.decode()
    assert not ProxyJob.objects.exists()

    api = APIClient().post("/api/proxies/", {**HUGE, "sets": ["munchkin-core"]}, format="json")
    assert api.status_code == 400
    assert expected in api.json()["details"]

    fits = client.get(PREVIEW, {**HUGE, "paper_size": "500x400"})
    assert fits.status_code == 200


def test_the_preview_is_bounded_in_pixels_and_faces(
    client: Client, core_catalog: None, faces_read: list[str], settings: Any
) -> None:
    settings.PROXY_PREVIEW_MAX_CARDS = 4
    response = client.get(
        PREVIEW,
        {
            "sets": "munchkin-core",
            "paper": "custom",
            "paper_size": "600x600",
            "card_size": "custom",
            "custom_card_size": "10x10",
            "margin": "0",
        },
    )
    assert response.status_code == 200, response
    image = Image.open(io.BytesIO(response.content)).convert("RGB")
    assert max(image.size) == PREVIEW_MAX_SIDE  # 600 mm at 60 DPI would be 1417 pixels
    assert len(faces_read) == 4  # 3,600 cells on the page: four faces, outlines for the rest
    per_mm = PREVIEW_MAX_SIDE / 600
    assert image.getpixel((round(45 * per_mm), round(5 * per_mm))) == PLACEHOLDER_FILL  # 5th
    assert image.getpixel((round(5 * per_mm), round(5 * per_mm))) != PLACEHOLDER_FILL  # 1st


def test_a_page_within_the_budget_shows_every_face(
    client: Client, core_catalog: None, faces_read: list[str]
) -> None:
    response = client.get(PREVIEW, {"sets": "munchkin-core", "paper": "a4"})
    assert response.status_code == 200
    assert len(faces_read) == 9  # 3 x 3 on A4


def test_previews_are_counted_per_address(
    client: Client, core_catalog: None, settings: Any
) -> None:
    settings.PROXY_PREVIEW_PER_MINUTE = 3
    for _ in range(3):
        assert client.get(PREVIEW, {"sets": "munchkin-core"}).status_code == 200
    refused = client.get(PREVIEW, {"sets": "munchkin-core"})
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused["Cache-Control"] == "no-store"
    assert any("at most 3 a minute from your address" in line for line in refusal(refused))
    elsewhere = client.get(PREVIEW, {"sets": "munchkin-core"}, REMOTE_ADDR="192.0.2.44")
    assert elsewhere.status_code == 200


def test_previews_are_counted_per_user_across_addresses(
    client: Client, core_catalog: None, alice: User, settings: Any
) -> None:
    settings.PROXY_PREVIEW_PER_MINUTE = 2
    client.force_login(alice)
    for address in ("192.0.2.1", "192.0.2.2"):
        response = client.get(PREVIEW, {"sets": "munchkin-core"}, REMOTE_ADDR=address)
        assert response.status_code == 200
    refused = client.get(PREVIEW, {"sets": "munchkin-core"}, REMOTE_ADDR="192.0.2.3")
    assert refused.status_code == 429
    assert any("from your account" in line for line in refusal(refused))


def test_a_card_list_longer_than_a_pdf_is_refused(client: Client, core_catalog: None) -> None:
    lines = "\n".join(["Net Troll"] * (MAX_COPIES + 1))
    response = client.post("/proxies/", {"cards": lines})
    assert response.status_code == 400
    assert f"at most {MAX_COPIES} lines" in response.content.decode()
    assert not ProxyJob.objects.exists()
