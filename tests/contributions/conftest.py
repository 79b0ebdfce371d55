"""The people of every contributions test, and an official set to propose for.

`proposer` (alice) proposes; `other` (bob) is a signed-in stranger; `curator` belongs to
the set's curator group; `other_curator` curates another official set only; `staff` is a
staff member (a curator of every official set)."""

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from PIL import Image

from catalog.models import Card, CardSet
from tests.conftest import FIXTURE_SETS, PASSWORD

SUPER_SET = FIXTURE_SETS / "munchkin-super.yaml"


@pytest.fixture
def super_catalog(db: None) -> CardSet:
    """Super Munchkin loaded from its fixture, with a curator group."""
    call_command("load_catalog", str(SUPER_SET), stdout=io.StringIO())
    card_set = CardSet.objects.get(code="munchkin-super")
    card_set.curators = Group.objects.create(name="super-curators")
    card_set.save()
    return card_set


@pytest.fixture
def other_official_set(db: None) -> CardSet:
    return CardSet.objects.create(
        code="munchkin-other",
        name="Another Official Set",
        official=True,
        curators=Group.objects.create(name="other-curators"),
    )


@pytest.fixture
def generic_guy(super_catalog: CardSet) -> Card:
    return Card.objects.get(card_set=super_catalog, name="Generic Guy")


@pytest.fixture
def proposer(alice: User) -> User:
    return alice


@pytest.fixture
def other(bob: User) -> User:
    return bob


@pytest.fixture
def curator(super_catalog: CardSet) -> User:
    user = User.objects.create_user("carol", password=PASSWORD)
    assert super_catalog.curators is not None
    user.groups.add(super_catalog.curators)
    return user


@pytest.fixture
def other_curator(other_official_set: CardSet) -> User:
    user = User.objects.create_user("dave", password=PASSWORD)
    assert other_official_set.curators is not None
    user.groups.add(other_official_set.curators)
    return user


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("erin", password=PASSWORD, is_staff=True)


@pytest.fixture
def with_treasures() -> Callable[[Card, int], dict[str, Any]]:
    """A card's document with its Treasures set (what the Done-when proposal changes)."""

    def change(card: Card, treasures: int) -> dict[str, Any]:
        return {**card.document, "treasures": treasures}

    return change


def jpeg_with_gps(width: int = 64, height: int = 48) -> bytes:
    """A JPEG carrying EXIF with a camera make and a GPS position, as phones write them."""
    image = Image.new("RGB", (width, height), (200, 40, 40))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"  # GPSLatitudeRef
    gps[2] = (51.0, 30.0, 12.0)  # GPSLatitude
    gps[3] = "W"
    gps[4] = (0.0, 7.0, 39.0)
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif.tobytes())
    return out.getvalue()


@pytest.fixture
def gps_photo() -> SimpleUploadedFile:
    return SimpleUploadedFile("card.jpg", jpeg_with_gps(), content_type="image/jpeg")
