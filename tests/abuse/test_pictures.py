"""Uploaded pictures cost what the pixel limit allows, not what their header claims (issue 34,
item 10): a 16-megapixel PNG that compresses to ~70 KB is refused from its header, before a
pixel is decoded, where it cost +256 MB when it was decoded and copied four times."""

import base64
import io
import json
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from PIL import Image

from catalog.services import set_create
from tests.abuse.conftest import Probed
from tests.conftest import FIXTURE_SETS
from tests.factories import monster_document

pytestmark = pytest.mark.slow

# What refusing a picture from its header may cost: far below one decoded 16-megapixel picture
# (48 MB in RGB).
REFUSED_MB = 20.0
# What keeping the largest picture allowed may cost: one decoded 4096 x 3072 picture (Pillow
# holds 4 bytes a pixel: 50 MB) and a copy shrunk to 2048 x 1536, within the suite's budget.
ACCEPTED_MB = 80.0


def png(size: tuple[int, int], mode: str = "RGB", fmt: str = "PNG") -> dict[str, str]:
    """A picture of one colour: a few dozen KB however many pixels it has."""
    buffer = io.BytesIO()
    Image.new(mode, size, "#285aa0").save(buffer, fmt)
    return {
        "name": f"picture.{fmt.lower()}",
        "content_type": f"image/{fmt.lower()}",
        "base64": base64.b64encode(buffer.getvalue()).decode(),
    }


def test_the_16_megapixel_png_is_70_kb() -> None:
    assert 40_000 < len(base64.b64decode(png((4000, 4000))["base64"])) < 100_000


def _propose_with_photo(probe: Callable[..., Probed], photo: dict[str, str]) -> Probed:
    document = monster_document("Photographed Foe")
    return probe(
        {
            "method": "POST",
            "path": "/api/sets/munchkin-super/proposals/",
            "data": {
                "effects": json.dumps(document),
                "evidence": "My own copy of the card, photographed.",
            },
            "files": {"photo": photo},
            "user": "alice",
        }
    )


@pytest.fixture
def super_set(transactional_db: None) -> None:
    call_command("load_catalog", str(FIXTURE_SETS / "munchkin-super.yaml"), stdout=io.StringIO())


def test_a_16_megapixel_proposal_photo_is_refused_before_it_is_decoded(
    probe: Callable[..., Probed], super_set: None, alice: User
) -> None:
    answer = _propose_with_photo(probe, png((4000, 4000)))
    assert answer.status == 400, answer
    [error] = answer.json()["errors"]
    assert error["path"] == "photo"
    assert error["message"] == (
        "a photo is limited to 12.6 megapixels; this one is 4000x4000 (16.0 megapixels): make "
        "it smaller and upload it again"
    )
    assert answer.memory_mb <= REFUSED_MB, answer


@pytest.mark.parametrize(
    ("mode", "fmt"), [("RGB", "PNG"), ("RGBA", "PNG"), ("P", "PNG"), ("RGB", "JPEG")]
)
def test_the_largest_proposal_photo_allowed_is_kept_within_budget(
    probe: Callable[..., Probed], super_set: None, alice: User, mode: str, fmt: str
) -> None:
    answer = _propose_with_photo(probe, png((4096, 3072), mode, fmt))
    assert answer.status == 201, answer
    assert answer.memory_mb <= ACCEPTED_MB, answer


def test_16_megapixel_card_art_is_refused_before_it_is_decoded(
    probe: Callable[..., Probed], alice: User
) -> None:
    set_create(owner=alice, code="art", name="Art")
    answer = probe(
        {
            "method": "POST",
            "path": "/author/sets/alice-art/add-card/",
            "data": {
                "name": "Painted Foe",
                "kind": "monster",
                "deck": "door",
                "level": "3",
                "treasures": "1",
                "document_yaml": "encoding:\n  status: full\n",
            },
            "files": {"art": png((4000, 4000))},
            "user": "alice",
        }
    )
    assert answer.status == 400, answer
    assert "art is limited to 12.6 megapixels; this one is 4000x4000" in answer.body
    assert answer.memory_mb <= REFUSED_MB, answer
