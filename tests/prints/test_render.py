"""Card faces: true size at 300 DPI, the same bytes every time, long text cut with a warning."""

import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image

from catalog.exports import exporter_get
from catalog.models import Card
from catalog.services import card_create, set_create
from prints.faces import ART_TOP, HEIGHT, WIDTH, face_version, render_face
from prints.selectors import face_key
from tests.catalog.factories import card_in, png_bytes
from tests.factories import monster_document
from validator.engine import parse_card


def test_a_face_is_true_size_and_deterministic(core_set: Any) -> None:
    troll = next(c for c in core_set.cards if c.name == "Net Troll")
    first, second = render_face(troll, "munchkin-core"), render_face(troll, "munchkin-core")
    assert first.png == second.png and first.warnings == []
    image = Image.open(io.BytesIO(first.png))
    assert image.size == (WIDTH, HEIGHT) == (744, 1039)
    assert tuple(round(v) for v in image.info["dpi"]) == (300, 300)


def test_different_cards_differ(core_set: Any) -> None:
    faces = {render_face(c, "munchkin-core").png for c in core_set.cards[:10]}
    assert len(faces) == 10


def test_long_text_is_cut_with_a_warning() -> None:
    wordy = parse_card(
        monster_document(
            "Wordy Ogre",
            # As much text as a card may hold (20 per list, 40 effects in all).
            bad_stuff=[{"type": "lose_items", "count": 1}] * 20,
            effects=[
                {"type": "strength", "amount": n, "when": {"class": "warrior"}}
                for n in range(1, 21)
            ],
        )
    )
    face = render_face(wordy, "test")
    assert face.warnings == ["Wordy Ogre: rules text cut to fit the face"]


def test_exporter_interface(core_set: Any) -> None:
    troll = next(c for c in core_set.cards if c.name == "Net Troll")
    face = exporter_get("card-face")
    name, content_type, data = face.render(card=troll, set_code="x", slug="net-troll")
    assert (name, content_type) == ("net-troll.png", "image/png") and data[:4] == b"\x89PNG"


@pytest.mark.django_db
def test_faces_are_served_with_long_cache_headers(client: Client, core_catalog: None) -> None:
    troll = Card.objects.get(name="Net Troll")
    body = client.get("/api/cards/", {"q": '!"Net Troll"'}).json()
    image_url = body["data"][0]["image"]
    response = client.get(image_url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert "immutable" in response["Cache-Control"]
    stale = client.get(f"/faces/{troll.pk}/0000000000000000-1.png")
    assert stale.status_code == 302 and stale["Location"].endswith(image_url.split("testserver")[1])
    assert client.get("/faces/999999/abc.png").status_code == 404
    page = client.get(f"/sets/munchkin-core/{troll.slug}/").content.decode()
    assert 'data-testid="face"' in page and 'alt="The face of Net Troll"' in page


@pytest.mark.django_db
def test_an_unlisted_sets_face_is_found_by_its_current_digest_only(
    client: Client, core_catalog: None, alice: User, bob: User
) -> None:
    """Card ids are sequential and the face prints the set's code: an unlisted set's card
    has no face by its id and a wrong digest (404, no redirect to the current one), and its
    digest is bound to its set, so a copy of an official card is not found by the official
    card's digest. Its own pages give the address that loads."""
    troll = Card.objects.get(name="Net Troll")
    card_set = set_create(owner=alice, code="u", name="U", visibility="unlisted")
    copy = card_create(card_set=card_set, actor=alice, document=dict(troll.document))
    assert face_key(troll) == f"{troll.document_hash[:16]}-{face_version()}"  # unchanged
    assert face_key(copy) != face_key(troll)
    for who in (None, bob):
        if who is not None:
            client.force_login(who)
        for digest in ("0000000000000000-1", face_key(troll)):
            response = client.get(f"/faces/{copy.pk}/{digest}.png")
            assert response.status_code == 404, digest
            assert "alice-u" not in response.content.decode("utf-8", "replace")
        page = client.get(f"/sets/alice-u/{copy.slug}/").content.decode()
        src = re.search(r'<img src="([^"]+)"[^>]*data-testid="face"', page)
        assert src is not None and src[1] == f"/faces/{copy.pk}/{face_key(copy)}.png"
        response = client.get(src[1])
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        assert response["Cache-Control"] == "private, max-age=31536000, immutable"
    client.force_login(alice)  # the owner's stale digest is still redirected
    assert client.get(f"/faces/{copy.pk}/0000000000000000-1.png").status_code == 302


@pytest.mark.django_db
def test_a_cards_uploaded_art_is_drawn_on_its_served_face(
    client: Client, alice: User, settings: Any, tmp_path: Any
) -> None:
    settings.MEDIA_ROOT = tmp_path
    plain = card_in(alice, "public")
    with_art = card_in(alice, "unlisted", art=png_bytes())  # one solid #3a6ea5 picture
    assert face_key(with_art) != face_key(plain)  # a new picture is a new address
    client.force_login(alice)
    for card, expected in ((with_art, True), (plain, False)):
        response = client.get(f"/faces/{card.pk}/{face_key(card)}.png")
        assert response.status_code == 200
        image = Image.open(io.BytesIO(response.content)).convert("RGB")
        middle = image.getpixel((WIDTH // 2, ART_TOP + 60))
        assert (middle == (0x3A, 0x6E, 0xA5)) is expected, middle
