"""Rows for the catalog's tests, made through the services as users make them."""

import io

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from catalog.models import Card
from catalog.services import card_art_set, card_create, set_create
from tests.factories import monster_document


def png_bytes() -> bytes:
    """A small real PNG, as an upload of card art."""
    out = io.BytesIO()
    Image.new("RGB", (30, 42), "#3a6ea5").save(out, "PNG")
    return out.getvalue()


def card_in(owner: User, visibility: str, *, art: bytes | None = None) -> Card:
    """A card in a new set of `owner`'s with that visibility, with `art` when given."""
    card_set = set_create(
        owner=owner, code=f"{visibility}-set", name=f"{visibility} set", visibility=visibility
    )
    card = card_create(card_set=card_set, actor=owner, document=monster_document())
    if art is not None:
        upload = SimpleUploadedFile("art.png", art, content_type="image/png")
        card = card_art_set(card=card, actor=owner, upload=upload)
    return card
