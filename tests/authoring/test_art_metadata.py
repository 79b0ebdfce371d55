"""Card art is drawn again where it is kept (issue 34, item 7): the stored and the served bytes
carry none of the upload's metadata (EXIF with GPS and camera, PNG text chunks)."""

import io
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image, PngImagePlugin

from catalog.images import PictureError
from catalog.models import Card, CardSet
from catalog.services import card_art_set, card_create, set_create
from tests.authoring.test_editor import form_data
from tests.contributions.conftest import jpeg_with_gps
from tests.factories import monster_document

pytestmark = pytest.mark.django_db


def png_with_text() -> bytes:
    """A PNG carrying tEXt chunks, as drawing programs and some cameras write them."""
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Alice Example")
    info.add_text("Comment", "drawn at 12 Secret Street")
    out = io.BytesIO()
    Image.new("RGB", (40, 60), (30, 120, 60)).save(out, "PNG", pnginfo=info)
    return out.getvalue()


def _leaks(data: bytes) -> list[str]:
    words = [b"Exif", b"PhoneMaker", b"tEXt", b"Secret Street", b"Alice Example"]
    return [word.decode() for word in words if word in data]


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def her_set(alice: User) -> CardSet:
    return set_create(owner=alice, code="painted", name="Painted", visibility="public")


def test_the_uploads_do_carry_what_must_go() -> None:
    assert _leaks(jpeg_with_gps()) == ["Exif", "PhoneMaker"]
    assert _leaks(png_with_text()) == ["tEXt", "Secret Street", "Alice Example"]
    with Image.open(io.BytesIO(jpeg_with_gps())) as image:
        assert image.getexif().get_ifd(0x8825)  # GPS


@pytest.mark.parametrize(
    ("name", "data", "suffix"),
    [("photo.jpg", jpeg_with_gps, ".jpg"), ("drawn.png", png_with_text, ".png")],
)
def test_art_uploaded_in_the_editor_is_stored_and_served_clean(
    alice: User, her_set: CardSet, name: str, data: Any, suffix: str
) -> None:
    client = Client()
    client.force_login(alice)
    upload = SimpleUploadedFile(name, data())
    response = client.post(
        f"/author/sets/{her_set.code}/add-card/", form_data(monster_document(), art=upload)
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    card = Card.objects.get()
    assert str(card.art.name).endswith(suffix)
    with card.art.open("rb") as stored:
        kept = stored.read()
    served = b"".join(Client().get(f"/cards/{card.pk}/art").streaming_content)  # type: ignore[attr-defined]
    assert served == kept
    assert _leaks(kept) == []
    with Image.open(io.BytesIO(kept)) as image:
        assert image.size == ((64, 48) if suffix == ".jpg" else (40, 60))
        assert dict(image.getexif()) == {}
        assert not set(image.info) & {"exif", "Author", "Comment", "icc_profile"}


def test_every_writer_goes_through_the_redraw(alice: User, her_set: CardSet) -> None:
    card = card_create(card_set=her_set, actor=alice, document=monster_document())
    upload = SimpleUploadedFile("art.png", png_with_text())
    card = card_art_set(card=card, actor=alice, upload=upload)
    with card.art.open("rb") as stored:
        assert _leaks(stored.read()) == []
    # A file that is no picture is refused by the service too, and nothing is kept.
    with pytest.raises(PictureError, match="art could not be read as an image"):
        card_art_set(card=card, actor=alice, upload=SimpleUploadedFile("x.png", b"nope"))
    card.refresh_from_db()
    assert str(card.art.name).endswith(".png")


def test_big_art_is_shrunk_to_what_a_face_uses(alice: User, her_set: CardSet) -> None:
    out = io.BytesIO()
    Image.new("RGB", (4096, 3000), (200, 30, 30)).save(out, "PNG")
    card = card_create(card_set=her_set, actor=alice, document=monster_document())
    card = card_art_set(
        card=card, actor=alice, upload=SimpleUploadedFile("big.png", out.getvalue())
    )
    with card.art.open("rb") as stored, Image.open(stored) as image:
        assert image.size == (2048, 1500)
        assert image.getpixel((1000, 700)) == (200, 30, 30)
