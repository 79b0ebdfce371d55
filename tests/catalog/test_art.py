"""Card art is served by the site through the storage API, only to viewers who may see the card."""

import io
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.storage import default_storage
from django.test import Client
from django.urls import reverse
from PIL import Image

from catalog.models import Card
from tests.catalog.factories import card_in, png_bytes


@pytest.fixture(autouse=True)
def media_in_tmp(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path


def art_url(card: Card) -> str:
    return reverse("catalog:card_art", kwargs={"card_id": card.pk})


def streamed(response: Any) -> bytes:
    """A streamed answer read to its end, not closed again (which would send
    request_finished outside the test client and close the test's database)."""
    return b"".join(response.streaming_content)


def stored(card: Card) -> bytes:
    """The art as kept: the upload drawn again (catalog.images), its pixels the same."""
    with card.art.open("rb") as file:
        data: bytes = file.read()
    with Image.open(io.BytesIO(data)) as kept, Image.open(io.BytesIO(png_bytes())) as sent:
        assert kept.format == "PNG" and kept.tobytes() == sent.convert("RGB").tobytes()
    return data


def body(response: Any) -> bytes:
    try:
        return b"".join(response.streaming_content)
    finally:
        response.close()


def test_public_art_is_served_with_its_bytes_and_type(alice: User, client: Client) -> None:
    png = png_bytes()
    card = card_in(alice, "public", art=png)
    response = client.get(art_url(card))
    assert response.status_code == 200
    assert body(response) == stored(card)
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "public, max-age=86400"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_private_art_is_for_the_owner_only(alice: User, bob: User, client: Client) -> None:
    png = png_bytes()
    card = card_in(alice, "private", art=png)
    url = art_url(card)
    assert client.get(url).status_code == 404  # anonymous
    client.force_login(bob)
    assert client.get(url).status_code == 404
    client.force_login(alice)
    response = client.get(url)
    assert response.status_code == 200
    assert body(response) == stored(card)
    assert response["Cache-Control"] == "private, max-age=86400"


def test_a_card_without_art_has_none_to_serve(alice: User, client: Client) -> None:
    card = card_in(alice, "public")
    assert client.get(art_url(card)).status_code == 404


def test_an_unknown_card_has_no_art(db: None, client: Client) -> None:
    assert client.get(reverse("catalog:card_art", kwargs={"card_id": 999_999})).status_code == 404


def test_the_card_page_shows_art_through_the_art_view(alice: User, client: Client) -> None:
    card = card_in(alice, "public", art=png_bytes())
    page = client.get(reverse("catalog:card_detail", args=[card.card_set.code, card.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f'src="{art_url(card)}"' in html
    assert card.art.url not in html


def test_art_missing_from_storage_is_not_found(alice: User, client: Client) -> None:
    card = card_in(alice, "public", art=png_bytes())
    assert card.art.name
    default_storage.delete(card.art.name)
    assert client.get(art_url(card)).status_code == 404


def test_an_unlisted_sets_art_needs_its_set_code_in_the_address(
    alice: User, bob: User, client: Client
) -> None:
    """Card ids are sequential: by its id alone an unlisted set's art is not found (a 404
    that names nothing); the card page gives the address with `?set=CODE`, which loads."""
    png = png_bytes()
    card = card_in(alice, "unlisted", art=png)
    code = card.card_set.code
    # A public set's art keeps its address, the id alone (a set code changes nothing).
    public = card_in(alice, "public", art=png)
    page = client.get(f"/sets/{public.card_set.code}/{public.slug}/").content.decode()
    assert f'src="{art_url(public)}"' in page
    assert client.get(art_url(public), {"set": "anything"}).status_code == 200
    for who in (None, bob):
        if who is not None:
            client.force_login(who)
        for url in (art_url(card), f"{art_url(card)}?set=alice-other"):
            response = client.get(url)
            assert response.status_code == 404 and code not in response.content.decode()
        page = client.get(f"/sets/{code}/{card.slug}/").content.decode()
        assert f'src="{art_url(card)}?set={code}"' in page
        response = client.get(art_url(card), {"set": code})
        assert response.status_code == 200 and streamed(response) == stored(card)
        assert response["Cache-Control"] == "private, max-age=86400"
    client.force_login(alice)  # the owner reaches their own set's art by its id
    assert body(client.get(art_url(card))) == stored(card)
