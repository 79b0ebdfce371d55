"""The site hosts a Tabletop Simulator export's images, so that its saved object loads as it is
(issue 25): every FaceURL and BackURL answers from the running site with a JPEG of the grid the
saved object states; a private pack's images only behind its export's secret link, which its
owner may revoke; a loopback site offers file:/// paths to the unpacked zip instead.

The saved object is checked against the fields Tabletop Simulator reads (its saved-object
format: ObjectStates of DeckCustom objects, DeckIDs the CardIDs of ContainedObjects in order,
CardID = CustomDeck key * 100 + cell, a grid of at most 10 x 7) and the JSON Schema written
from them (tests/packs/schemas/tts-saved-object.schema.json). The card's shape comes from the
printed card: 63 x 88 mm."""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
import zipfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.contrib.auth.models import User
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from PIL import Image, ImageChops, ImageStat
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from catalog.models import CardSet
from catalog.services.cards import card_create
from catalog.services.sets import set_create
from packs.models import Pack, TtsExport, TtsSheet
from packs.services import pack_build, pack_create
from packs.tts import hosting, jobs
from prints.models import JobStatus
from tests.conftest import CORE_SET, FIXTURE_SETS
from tests.factories import monster_document

SCHEMA = json.loads(
    (Path(__file__).parent / "schemas" / "tts-saved-object.schema.json").read_text("utf-8")
)
DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
CARD_MM = (63, 88)  # a Munchkin card, as printed
MAX_COLUMNS, MAX_ROWS, MAX_SIDE = 10, 7, 4096  # what Tabletop Simulator reads from one sheet
# Monsters of Level 1 and 2 and cheap items of the core set and Super Munchkin.
TWO_SETS_QUERY = "(t:monster level<=2) or (t:item gold<=100)"
CORE_QUERY = '!"Net Troll" or !"Crabs" or !"Boots of Butt-Kicking"'


@pytest.fixture
def isolated(settings: Any, tmp_path: Path) -> None:
    """This test's own media storage and faces cache; exports stay queued until run here."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }
    settings.TASKS = DUMMY
    settings.SITE_URL = ""
    settings.TTS_EXPORT_KEEP_HOURS = 24


def load_two_sets() -> None:
    call_command(
        "load_catalog",
        str(CORE_SET),
        str(FIXTURE_SETS / "munchkin-super.yaml"),
        stdout=io.StringIO(),
    )


def exported(pack: Pack, owner: User, base_url: str) -> TtsExport:
    export = jobs.tts_export_start(pack=pack, actor=owner, base_url=base_url)
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == JobStatus.DONE, export.error
    return export


def saved_object_path(export: TtsExport) -> str:
    return f"/packs/{export.pack_id}/tts/{export.pk}/saved-object.json"


def download_saved_object(client: Client, export: TtsExport, **query: str) -> Any:
    response = client.get(saved_object_path(export), query)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    return json.loads(response.content)


def check_fields_tts_reads(saved: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """The saved object as Tabletop Simulator reads it; returns each URL's grid (columns,
    rows), a back being one card (1, 1)."""
    errors = [e.message for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(saved)]
    assert errors == []
    grids: dict[str, tuple[int, int]] = {}
    assert saved["ObjectStates"], "something to spawn"
    for state in saved["ObjectStates"]:
        assert state["Name"] == "DeckCustom"
        cards = state["ContainedObjects"]
        assert state["DeckIDs"] == [card["CardID"] for card in cards]
        for key, sheet in state["CustomDeck"].items():
            assert key.isdigit() and int(key) >= 1
            assert 1 <= sheet["NumWidth"] <= MAX_COLUMNS and 1 <= sheet["NumHeight"] <= MAX_ROWS
            grids[sheet["FaceURL"]] = (sheet["NumWidth"], sheet["NumHeight"])
            grids[sheet["BackURL"]] = (1, 1)
        for card in cards:
            assert card["Name"] == "Card"
            key, cell = divmod(card["CardID"], 100)
            assert list(card["CustomDeck"]) == [str(key)]
            sheet = state["CustomDeck"][str(key)]
            assert card["CustomDeck"][str(key)] == sheet
            # The last cell holds the image shown for a card hidden in a hand.
            assert cell < sheet["NumWidth"] * sheet["NumHeight"] - 1
    return grids


def fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def card_shaped(width: int, height: int) -> bool:
    return abs(width / height - CARD_MM[0] / CARD_MM[1]) < 0.01


def close(a: Image.Image, b: Image.Image) -> bool:
    difference = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return max(difference.mean) < 12


# -- done when: every URL of a two-set pack's saved object answers from the running site -------


@pytest.mark.django_db(transaction=True)
def test_every_url_of_a_two_set_packs_saved_object_answers_with_its_sheet(
    live_server: LiveServer, isolated: None, client: Client
) -> None:
    load_two_sets()
    erin = User.objects.create_user("erin")
    built = pack_build(
        actor=erin,
        set_codes=["munchkin-core", "munchkin-super"],
        query=TWO_SETS_QUERY,
        name="Two sets",
    )
    pack = pack_create(actor=erin, built=built)
    export = exported(pack, erin, live_server.url)
    assert export.public and export.token == ""  # two official sets

    client.force_login(erin)
    saved = download_saved_object(client, export)
    grids = check_fields_tts_reads(saved)
    descriptions = [
        card["Description"] for state in saved["ObjectStates"] for card in state["ContainedObjects"]
    ]
    assert {d.split(" · ")[0] for d in descriptions} == {"munchkin-core", "munchkin-super"}
    assert len(grids) >= 4  # a face sheet and a back for each deck

    images: dict[str, Image.Image] = {}
    for url, (columns, rows) in grids.items():
        assert url.startswith(f"{live_server.url}/tts/sheets/"), url
        status, content_type, body = fetch(url)
        assert (status, content_type) == (200, "image/jpeg"), url
        image = Image.open(io.BytesIO(body))
        image.load()
        assert image.format == "JPEG" and image.mode == "RGB"
        width, height = image.size
        assert width <= MAX_SIDE and height <= MAX_SIDE
        assert width % columns == 0 and height % rows == 0, (url, image.size, columns, rows)
        assert card_shaped(width // columns, height // rows), (url, image.size)
        images[url] = image
    # The grid is the one the sheet is drawn on: its last cell is the deck's back.
    for state in saved["ObjectStates"]:
        for sheet in state["CustomDeck"].values():
            face, back = images[sheet["FaceURL"]], images[sheet["BackURL"]]
            cell_w = face.width // sheet["NumWidth"]
            cell_h = face.height // sheet["NumHeight"]
            last = face.crop((face.width - cell_w, face.height - cell_h, face.width, face.height))
            assert close(last, back.resize(last.size, Image.Resampling.BOX))
            first = face.crop((0, 0, cell_w, cell_h))
            assert not close(first, back.resize(first.size, Image.Resampling.BOX))

    # The zip's saved object holds the same addresses: it loads as it is too.
    archive = zipfile.ZipFile(io.BytesIO(export.archive.read()))
    assert json.loads(archive.read("two-sets.json")) == saved
    readme = archive.read("README.txt").decode()
    assert "Nothing to upload" in readme and live_server.url in readme


# -- a private pack's images ------------------------------------------------------------------


@pytest.fixture
def private_pack(isolated: None, core_catalog: None, alice: User) -> Pack:
    """Three core cards and two of alice's private set."""
    secret = set_create(owner=alice, code="secret", name="Secret monsters")
    for name in ("Hidden Hydra", "Veiled Vampire"):
        card_create(card_set=secret, actor=alice, document=monster_document(name))
    built = pack_build(
        actor=alice,
        set_codes=["munchkin-core", secret.code],
        query=f"{CORE_QUERY} or set:{secret.code}",
        name="Secret pack",
    )
    return pack_create(actor=alice, built=built)


def image_paths(saved: dict[str, Any], base: str) -> list[str]:
    urls = {
        sheet[key]
        for state in saved["ObjectStates"]
        for sheet in state["CustomDeck"].values()
        for key in ("FaceURL", "BackURL")
    }
    assert all(url.startswith(base) for url in urls), urls
    return sorted(url.removeprefix(base) for url in urls)


def test_a_private_packs_images_answer_only_with_the_link(
    private_pack: Pack, alice: User, bob: User, client: Client
) -> None:
    export = exported(private_pack, alice, "http://testserver")
    assert not export.public and len(export.token) == 43
    client.force_login(alice)
    paths = image_paths(download_saved_object(client, export), "http://testserver")
    assert all(path.startswith(f"/tts/sheets/{export.token}/") for path in paths)

    anyone = Client()
    for path in paths:
        answer = anyone.get(path)
        assert answer.status_code == 200 and answer["Content-Type"] == "image/jpeg"
        assert "private" in answer["Cache-Control"]

    bobs = Client()
    bobs.force_login(bob)
    other_token = hosting.new_token()
    for path in paths:
        sha = path.rsplit("/", 1)[1]
        assert bobs.get(f"/tts/sheets/{sha}").status_code == 404  # no token
        assert bobs.get(f"/tts/sheets/{other_token}/{sha}").status_code == 404
        assert client.get(f"/tts/sheets/{sha}").status_code == 404  # the owner too
    # Someone else's export page, saved object and link: not there at all.
    assert bobs.get(saved_object_path(export)).status_code == 404
    assert (
        bobs.post(
            f"/packs/{export.pack_id}/tts/{export.pk}/link/", {"action": "revoke"}
        ).status_code
        == 404
    )
    assert TtsExport.objects.get(pk=export.pk).token == export.token


def test_revoking_the_link_breaks_the_old_saved_object_and_the_page_says_so(
    private_pack: Pack, alice: User, client: Client
) -> None:
    export = exported(private_pack, alice, "http://testserver")
    client.force_login(alice)
    page = f"/packs/{export.pack_id}/tts/{export.pk}/"
    html = client.get(page).content.decode()
    assert 'data-testid="tts-revoke"' in html and "secret link" in html
    old = image_paths(download_saved_object(client, export), "http://testserver")

    answer = client.post(f"{page}link/", {"action": "revoke"})
    assert answer.status_code == 302 and answer["Location"] == page
    export.refresh_from_db()
    assert export.token == "" and export.token_revoked_at is not None
    assert all(Client().get(path).status_code == 404 for path in old)
    html = client.get(page).content.decode()
    assert 'data-testid="tts-revoked"' in html
    assert "can no longer load their images (the site answers" in html
    assert 'data-testid="tts-saved-object"' not in html
    assert client.get(saved_object_path(export)).status_code == 404

    assert client.post(f"{page}link/", {"action": "renew"}).status_code == 302
    export.refresh_from_db()
    new = image_paths(download_saved_object(client, export), "http://testserver")
    assert all(Client().get(path).status_code == 200 for path in new)
    assert all(Client().get(path).status_code == 404 for path in old)


def test_a_bad_link_action_is_refused_and_changes_nothing(
    private_pack: Pack, alice: User, client: Client
) -> None:
    export = exported(private_pack, alice, "http://testserver")
    client.force_login(alice)
    answer = client.post(f"/packs/{export.pack_id}/tts/{export.pk}/link/", {"action": "x" * 5000})
    assert answer.status_code == 400
    assert "the action is &#x27;revoke&#x27; or &#x27;renew&#x27;" in answer.content.decode()
    assert TtsExport.objects.get(pk=export.pk).token == export.token


def test_a_public_set_made_private_stops_serving_its_images(
    isolated: None, core_catalog: None, alice: User, client: Client
) -> None:
    shared = set_create(owner=alice, code="shared", name="Shared", visibility="public")
    card_create(card_set=shared, actor=alice, document=monster_document("Open Ogre"))
    built = pack_build(
        actor=alice,
        set_codes=["munchkin-core", shared.code],
        query=f"{CORE_QUERY} or set:{shared.code}",
    )
    export = exported(pack_create(actor=alice, built=built), alice, "http://testserver")
    assert export.public
    client.force_login(alice)
    paths = image_paths(download_saved_object(client, export), "http://testserver")
    assert all(p.startswith("/tts/sheets/") and p.count("/") == 3 for p in paths)
    assert all(Client().get(path).status_code == 200 for path in paths)
    assert "public" in Client().get(paths[0])["Cache-Control"]
    CardSet.objects.filter(pk=shared.pk).update(visibility="private")
    # No other export is public: its images, backs included, are no longer anyone's.
    assert all(Client().get(path).status_code == 404 for path in paths)


def test_unknown_and_malformed_image_addresses_are_404(isolated: None, db: None) -> None:
    anyone = Client()
    sha = "a" * 64
    for path in (
        f"/tts/sheets/{sha}.jpg",
        f"/tts/sheets/{'A' * 64}.jpg",
        f"/tts/sheets/{'b' * 43}/{sha}.jpg",
        f"/tts/sheets/{'b' * 44}/{sha}.jpg",
        f"/tts/sheets/{'b' * 5000}/{sha}.jpg",
        "/tts/sheets/../../settings.py",
    ):
        assert anyone.get(path).status_code == 404, path


# -- the base of the addresses ----------------------------------------------------------------


def test_the_request_that_starts_the_export_gives_the_base_unless_site_url_is_set(
    private_pack: Pack, alice: User, client: Client, settings: Any
) -> None:
    client.force_login(alice)
    client.post(f"/packs/{private_pack.pk}/tts/")
    assert TtsExport.objects.get().base_url == "http://testserver"
    settings.SITE_URL = "https://cards.example.org"
    api = APIClient()
    api.force_login(alice)
    started = api.post(f"/api/packs/{private_pack.pk}/tts/")
    assert started.status_code == 202
    export = TtsExport.objects.get(pk=started.json()["id"])
    assert export.base_url == "https://cards.example.org"
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    paths = image_paths(download_saved_object(client, export), "https://cards.example.org")
    assert all(path.startswith(f"/tts/sheets/{export.token}/") for path in paths)


# -- a site on this computer only -------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "local"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.3.2.1", True),
        ("http://[::1]:8000", True),
        ("http://localhost:8000", True),
        ("http://cards.localhost", True),
        ("https://cards.example.org", False),
        ("http://10.0.0.5:8000", False),
        ("http://testserver", False),
    ],
)
def test_loopback_addresses(base: str, local: bool) -> None:
    assert hosting.is_loopback(base) is local


def test_a_loopback_site_says_so_and_offers_the_unpacked_zips_files(
    private_pack: Pack, alice: User, client: Client
) -> None:
    export = exported(private_pack, alice, "http://127.0.0.1:8000")
    client.force_login(alice)
    for page in (f"/packs/{export.pack_id}/", f"/packs/{export.pack_id}/tts/{export.pk}/"):
        html = client.get(page).content.decode()
        assert 'data-testid="tts-local"' in html, page
        assert "an address that reaches only this computer" in html
        assert 'name="folder"' in html and 'data-testid="tts-saved-object"' in html
    # RFC 8089: file:///C:/path on Windows, file:///path elsewhere; a space is %20.
    windows = download_saved_object(client, export, folder="C:\\Users\\Me\\My Games\\secret-pack\\")
    assert image_paths(windows, "file:///C:/Users/Me/My%20Games/secret-pack/")[0].endswith(".jpg")
    names = {p for p in image_paths(windows, "file:///C:/Users/Me/My%20Games/secret-pack/")}
    archive = zipfile.ZipFile(io.BytesIO(export.archive.read()))
    assert names <= set(archive.namelist())
    posix = download_saved_object(client, export, folder="/home/me/secret-pack")
    assert set(image_paths(posix, "file:///home/me/secret-pack/")) == names

    elsewhere = exported(private_pack, alice, "https://cards.example.org")
    html = client.get(f"/packs/{elsewhere.pack_id}/tts/{elsewhere.pk}/").content.decode()
    assert 'data-testid="tts-local"' not in html


@pytest.mark.parametrize(
    ("folder", "error"),
    [
        ("Downloads/pack", "is not a full path"),
        ("", "type the folder where you unpacked the zip"),
        ("/home/me/" + "x" * 400, "at most 400 characters, not 409"),
        ("/home/me\nrm", "no control characters"),
    ],
)
def test_a_folder_that_cannot_be_used_is_refused_on_its_field(
    private_pack: Pack, alice: User, client: Client, folder: str, error: str
) -> None:
    export = exported(private_pack, alice, "http://127.0.0.1:8000")
    client.force_login(alice)
    answer = client.get(saved_object_path(export), {"folder": folder})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'data-testid="tts-folder-error"' in html and error in html
    api = APIClient()
    api.force_login(alice)
    body = api.get(f"/api{saved_object_path(export)}", {"folder": folder}).json()
    assert body["status"] == 400 and body["errors"][0]["path"] == "folder"


# -- the pack page ----------------------------------------------------------------------------


def test_the_pack_page_offers_the_saved_object_beside_the_zip(
    private_pack: Pack, alice: User, client: Client
) -> None:
    client.force_login(alice)
    html = client.get(f"/packs/{private_pack.pk}/").content.decode()
    assert 'data-testid="tts-saved-object"' not in html  # nothing exported yet
    export = exported(private_pack, alice, "https://cards.example.org")
    html = client.get(f"/packs/{private_pack.pk}/").content.decode()
    assert f'href="{saved_object_path(export)}"' in html
    assert "Tabletop Simulator: saved object" in html
    assert f'href="/packs/{private_pack.pk}/tts/{export.pk}/download.zip"' in html
    for folder in (
        "Documents\\My Games\\Tabletop Simulator\\Saves\\Saved Objects",
        "~/Library/Tabletop Simulator/Saves/Saved Objects",
        "~/.local/share/Tabletop Simulator/Saves/Saved Objects",
    ):
        assert folder in html
    assert 'data-testid="tts-local"' not in html


# -- pruning ----------------------------------------------------------------------------------


def test_pruning_deletes_an_expired_exports_images_unless_another_export_uses_them(
    private_pack: Pack, alice: User
) -> None:
    first = exported(private_pack, alice, "http://testserver")
    second = exported(private_pack, alice, "http://testserver")
    names = set(TtsSheet.objects.filter(export=first).values_list("name", flat=True))
    # The same pack draws the same images: stored once, under their content's hash.
    assert names == set(TtsSheet.objects.filter(export=second).values_list("name", flat=True))
    assert all(default_storage.exists(name) for name in names)
    saved = str(first.saved_object.name)

    long_ago = timezone.now() - timedelta(hours=25)
    TtsExport.objects.filter(pk=first.pk).update(finished_at=long_ago)
    call_command("prune_tts_exports", stdout=io.StringIO())
    assert not TtsExport.objects.filter(pk=first.pk).exists()
    assert not default_storage.exists(saved)
    assert all(default_storage.exists(name) for name in names)  # the second uses them

    TtsExport.objects.filter(pk=second.pk).update(finished_at=long_ago)
    call_command("prune_tts_exports", stdout=io.StringIO())
    assert not any(default_storage.exists(name) for name in names)
    assert not TtsSheet.objects.exists()


def test_an_expired_exports_images_are_not_served_before_the_pruning(
    private_pack: Pack, alice: User, client: Client
) -> None:
    export = exported(private_pack, alice, "http://testserver")
    client.force_login(alice)
    paths = image_paths(download_saved_object(client, export), "http://testserver")
    TtsExport.objects.filter(pk=export.pk).update(finished_at=timezone.now() - timedelta(hours=25))
    assert all(Client().get(path).status_code == 404 for path in paths)
    assert client.get(saved_object_path(export)).status_code == 404


# -- the API ----------------------------------------------------------------------------------


def test_the_api_gives_the_saved_object_and_changes_the_link(
    private_pack: Pack, alice: User
) -> None:
    export = exported(private_pack, alice, "http://127.0.0.1:8000")
    api = APIClient()
    api.force_login(alice)
    status = f"/api/packs/{export.pack_id}/tts/{export.pk}/"
    body = api.get(status).json()
    assert body["images"] == "token" and body["local_only"] is True
    assert body["saved_object"] == f"http://testserver{status}saved-object.json"
    saved = api.get(body["saved_object"])
    assert saved.status_code == 200
    paths = image_paths(json.loads(saved.content), "http://127.0.0.1:8000")
    assert all(path.startswith(f"/tts/sheets/{export.token}/") for path in paths)

    revoked = api.post(f"{status}link/", {"action": "revoke"}, format="json")
    assert revoked.status_code == 200 and revoked.json()["images"] == "revoked"
    assert revoked.json()["saved_object"] is None and revoked.json()["link_revoked_at"]
    assert api.get(body["saved_object"]).status_code == 404
    renewed = api.post(f"{status}link/", {"action": "renew"}, format="json").json()
    assert renewed["images"] == "token" and renewed["saved_object"]
    bad = api.post(f"{status}link/", {"action": "delete"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "action"


def test_the_schema_documents_the_saved_object_and_the_link() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    saved = schema["paths"]["/api/packs/{pack_id}/tts/{export_id}/saved-object.json"]["get"]
    assert "application/json" in saved["responses"]["200"]["content"]
    assert [p["name"] for p in saved["parameters"] if p["in"] == "query"] == ["folder"]
    assert "post" in schema["paths"]["/api/packs/{pack_id}/tts/{export_id}/link/"]
    fields = schema["components"]["schemas"]["TtsExportOutput"]["properties"]
    assert {"saved_object", "images", "local_only", "link_revoked_at"} <= set(fields)


def test_a_run_of_an_export_already_running_is_left_alone(private_pack: Pack, alice: User) -> None:
    export = jobs.tts_export_start(pack=private_pack, actor=alice, base_url="http://x")
    TtsExport.objects.filter(pk=export.pk).update(status=JobStatus.RUNNING)
    jobs.tts_export_run(export_id=export.pk)  # a second delivery, while the first runs
    export.refresh_from_db()
    assert export.status == JobStatus.RUNNING and not export.archive
    assert not TtsSheet.objects.exists()
