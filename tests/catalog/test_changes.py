"""One "card saved" path (catalog/changes.py): whoever saves a card, once the save commits its
verdict is checked, its face drawn, its own scenarios run again and the bulk data files made
again; a load leaves the verdict and the face to its own pass (`make run` draws and checks after
loading)."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import Group, User
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from authoring.editor import split_document
from authoring.models import CardScenario
from authoring.scenarios import scenario_create
from authoring.transfer import set_import
from catalog.changes import CatalogChange, catalog_change_receivers
from catalog.models import Card, CardSet
from catalog.services import StaleRevisionError, card_art_set, card_update, set_create
from contributions.services import proposal_accept, proposal_create
from prints.selectors import face_cache_key
from tests.factories import monster_document
from validator.engine import document_hash, dump_card, parse_card
from validator.models import CardCheck

pytestmark = pytest.mark.django_db

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}

# The card's own scenario: it holds while the Test Ogre is Level 7, and every writer below
# saves it at Level 9, so a scenario run against the saved card fails.
LEVEL_SEVEN = """\
name: The Ogre is Level 7
players:
  - {name: Aric, level: 5}
combat: {fighter: Aric, monsters: [Test Ogre]}
expect: {monster_strength: 7}
"""

OFFICIAL_FILE = {
    "set": {"code": "test-box", "name": "Test Box", "official": True},
    "cards": [monster_document()],
}


@pytest.fixture(autouse=True)
def every_reaction_on(settings: Any, tmp_path: Path) -> None:
    """Background work runs as each change commits, into this test's own faces cache and
    bulk data folder, with no interval between two bulk data runs."""
    settings.TASKS = IMMEDIATE
    settings.FACES_AHEAD = True
    settings.BULK_DATA_AHEAD = True
    settings.BULK_DATA_INTERVAL = 0
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }


@pytest.fixture
def erin(db: None) -> User:
    """Staff: edits official sets and curates their proposals."""
    return User.objects.create_user("erin", password="pw-erin-123456", is_staff=True)


def official_card(tmp_path: Path, erin: User) -> Card:
    """The Test Ogre (Level 7) of an official set loaded from its file, with a curator group."""
    path = tmp_path / "test-box.yaml"
    path.write_text(json.dumps(OFFICIAL_FILE))
    call_command("load_catalog", str(path), stdout=io.StringIO())
    card_set = CardSet.objects.get(code="test-box")
    card_set.curators = Group.objects.create(name="test-box-curators")
    card_set.save()
    return Card.objects.get(card_set=card_set)


def custom_card(alice: User) -> Card:
    """The Test Ogre (Level 7), revision 1 of Alice's public set."""
    card_set = set_create(owner=alice, code="ogres", name="Ogres", visibility="public")
    client = APIClient()
    client.force_authenticate(alice)
    made = client.post(
        "/api/cards/", {"set": card_set.code, "effects": monster_document()}, format="json"
    )
    assert made.status_code == 201, made.content
    return Card.objects.get(pk=made.json()["id"])


def level_nine() -> dict[str, Any]:
    return monster_document(level=9)


# Each writer saves the Test Ogre at Level 9 as a player or the site would.


def save_in_the_editor(card: Card, alice: User, erin: User, tmp_path: Path) -> None:
    client = Client()
    client.force_login(alice)
    values, text = split_document(level_nine())
    form = {k: ("" if v is None else v) for k, v in values.items()}
    form.update(document_yaml=text, base_revision=card.revision)
    url = f"/author/sets/{card.card_set.code}/cards/{card.slug}/"
    assert client.post(url, form).status_code == 302


def save_through_the_api(card: Card, alice: User, erin: User, tmp_path: Path) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    body = {"effects": level_nine(), "revision": card.revision}
    assert client.patch(f"/api/cards/{card.pk}/", body, format="json").status_code == 200


def import_a_set_file(card: Card, alice: User, erin: User, tmp_path: Path) -> None:
    text = yaml.safe_dump({"set": {"code": "ogres", "name": "Ogres"}, "cards": [level_nine()]})
    report = set_import(owner=alice, text=text, source="ogres.yaml", into=card.card_set)
    assert report.updated == ["Test Ogre"]


def revert_to_an_earlier_revision(card: Card, alice: User, erin: User, tmp_path: Path) -> None:
    # Revision 2 is Level 5; revision 3 reverts to a revision at Level 9 made before it.
    card_update(card=card, actor=alice, document=level_nine(), base_revision=1)
    card_update(card=card, actor=alice, document=monster_document(level=5), base_revision=2)
    client = Client()
    client.force_login(alice)
    url = f"/author/sets/{card.card_set.code}/cards/{card.slug}/revert/2/"
    assert client.post(url, {"base_revision": 3}).status_code == 302


def accept_a_proposal(card: Card, alice: User, erin: User, tmp_path: Path) -> None:
    proposal = proposal_create(
        proposer=alice,
        card_set=card.card_set,
        card=card,
        document=level_nine(),
        evidence="My own copy of the box: the Ogre is Level 9.",
    )
    proposal_accept(proposal=proposal, curator=erin)


def load_a_set_file(card: Card, alice: User, erin: User, tmp_path: Path) -> None:
    path = tmp_path / "test-box.yaml"
    path.write_text(json.dumps({**OFFICIAL_FILE, "cards": [level_nine()]}))
    call_command("load_catalog", str(path), stdout=io.StringIO())


Writer = Callable[[Card, User, User, Path], None]
# Writer, whether its card is in an official set, whether it checks and draws the card itself.
WRITERS: dict[str, tuple[Writer, bool, bool]] = {
    "editor": (save_in_the_editor, False, False),
    "api": (save_through_the_api, False, False),
    "import": (import_a_set_file, False, False),
    "revert": (revert_to_an_earlier_revision, False, False),
    "proposal": (accept_a_proposal, True, False),
    "load": (load_a_set_file, True, True),
}


def bulk_cards(client: Client) -> dict[str, dict[str, Any]]:
    """The bulk data cards file as the API hands it out, by card name."""
    listing = {entry["type"]: entry for entry in client.get("/api/bulk-data/").json()["data"]}
    response = client.get(listing["cards"]["download_uri"])
    return {card["name"]: card for card in json.loads(gzip.decompress(response.getvalue()))}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_every_writer_of_a_card_sets_off_every_reaction(
    writer: str,
    alice: User,
    erin: User,
    tmp_path: Path,
    django_capture_on_commit_callbacks: Any,
) -> None:
    write, official, checked_after = WRITERS[writer]
    card = official_card(tmp_path, erin) if official else custom_card(alice)
    scenario = scenario_create(
        card=card, actor=erin if official else alice, name="Seven", text=LEVEL_SEVEN
    )
    assert scenario.last_status == "pass"

    with django_capture_on_commit_callbacks(execute=True):
        write(card, alice, erin, tmp_path)

    saved = Card.objects.select_related("card_set").get(pk=card.pk)
    assert saved.level == 9 and saved.revision > card.revision
    scenario = CardScenario.objects.get(pk=scenario.pk)
    assert (scenario.last_status, scenario.last_card_revision) == ("fail", saved.revision)
    assert scenario.last_values["monster_strength"] == 9
    assert bulk_cards(Client())["Test Ogre"]["level"] == 9
    # A load's faces wait for its pass (its cards are checked by that pass too, and here by
    # the bulk data's official pack, which checks the official cards it holds).
    assert caches["faces"].has_key(face_cache_key(saved)) is not checked_after
    if not checked_after:
        assert CardCheck.objects.filter(document_hash=saved.document_hash).exists()


def test_new_art_redraws_the_face_and_leaves_the_verdict_and_scenarios(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    card = custom_card(alice)
    scenario = scenario_create(card=card, actor=alice, name="Seven", text=LEVEL_SEVEN)
    picture = io.BytesIO()
    Image.new("RGB", (40, 30), "orange").save(picture, format="PNG")
    upload = SimpleUploadedFile("ogre.png", picture.getvalue(), content_type="image/png")
    with django_capture_on_commit_callbacks(execute=True):
        card = card_art_set(card=card, actor=alice, upload=upload)
    card = Card.objects.select_related("card_set").get(pk=card.pk)
    assert caches["faces"].has_key(face_cache_key(card))  # the face with its art
    assert CardScenario.objects.get(pk=scenario.pk).last_card_revision == 1  # not run again


def test_a_rolled_back_save_tells_no_one(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    card = custom_card(alice)
    with (
        django_capture_on_commit_callbacks(execute=True) as told,
        pytest.raises(StaleRevisionError),
    ):
        card_update(card=card, actor=alice, document=level_nine(), base_revision=9)
    assert told == []
    nine = document_hash(dump_card(parse_card(level_nine())))
    assert not CardCheck.objects.filter(document_hash=nine).exists()


def test_the_apps_above_the_catalog_each_receive_its_changes() -> None:
    # Validation is the catalog's own; faces, scenarios and bulk data are the apps' above it.
    assert catalog_change_receivers() == ["validation", "faces", "card-scenarios", "bulk-data"]


def test_a_change_names_the_faces_it_makes_stale() -> None:
    change = CatalogChange(cards_saved=(3, 1), art_changed=(1, 2))
    assert change.faces_stale == (1, 2, 3)
    assert CatalogChange.saved([5, 4, 5]).cards_saved == (4, 5)
