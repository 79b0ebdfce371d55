"""Tabletop Simulator exports that do what they say (issue 36, item 4): an export started
through the API hosts its images as one started from the page does; `export_pack --base-url`
writes loadable URLs and every zip's README says truly where the images are; and each export
reports the cards it holds with stats not known yet and the cards it leaves out, and why (on
the pack page, the export's page, the API's export object, the README and the command)."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from catalog.services.cards import card_create
from catalog.services.sets import set_create
from packs.models import Pack, TtsExport
from packs.services import pack_build, pack_create
from packs.tts import jobs
from packs.tts.exporter import export_report
from prints.models import JobStatus
from tests.conftest import CORE_SET, FIXTURE_SETS
from tests.factories import monster_document
from validator.engine import (
    CardBase,
    PackDocument,
    SetDocument,
    build_pack,
    load_set_file,
    parse_pack,
    unknown_stats,
)

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
QUERY = '!"Net Troll" or !"Boots of Butt-Kicking"'
TEXT_ONLY = {"status": "text_only", "reason": "only its name is known"}
NOTES = "Its text is not known."
LAB = "alice-lab"  # alice's set "lab", in her scope
# A private set of cards as the official sets' least known ones are: a monster and an item
# whose stats are not known, a card whose deck is not known, a Role card.
LAB_CARDS: list[dict[str, Any]] = [
    monster_document("Mystery Mole", level=None, treasures=None, encoding=TEXT_ONLY, notes=NOTES),
    {
        "name": "Odd Trinket",
        "deck": "treasure",
        "kind": "item",
        "slot": None,
        "bonus": None,
        "gold": None,
        "encoding": TEXT_ONLY,
        "notes": NOTES,
    },
    {
        "name": "Nameless Thing",
        "deck": None,
        "kind": "unknown",
        "encoding": TEXT_ONLY,
        "notes": NOTES,
    },
    {"name": "Lab Director", "deck": None, "kind": "role", "encoding": TEXT_ONLY, "notes": NOTES},
]
LAB_REPORT = {
    "unknown_stats": [
        {"name": "Mystery Mole", "set": LAB, "deck": "door", "stats": ["level", "treasures"]},
        {
            "name": "Odd Trinket",
            "set": LAB,
            "deck": "treasure",
            "stats": ["bonus", "slot", "gold"],
        },
    ],
    "left_out": [
        {
            "name": "Lab Director",
            "set": LAB,
            "why": "in neither deck: a Role card, dealt to a player apart from the Door and "
            "Treasure decks",
        },
        {
            "name": "Nameless Thing",
            "set": LAB,
            "why": "in neither deck: which deck it belongs to (Door or Treasure) is not known yet",
        },
    ],
}  # fmt: skip


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


@pytest.fixture
def public_pack(isolated: None, core_catalog: None, alice: User) -> Pack:
    built = pack_build(actor=alice, set_codes=["munchkin-core"], query=QUERY, name="Two of core")
    return pack_create(actor=alice, built=built)


@pytest.fixture
def lab_pack(isolated: None, core_catalog: None, alice: User) -> Pack:
    """Two core cards and alice's private set of little-known cards."""
    lab = set_create(owner=alice, code="lab", name="Lab")
    for document in LAB_CARDS:
        card_create(card_set=lab, actor=alice, document=document)
    built = pack_build(
        actor=alice, set_codes=["munchkin-core", LAB], query=f"{QUERY} or set:{LAB}", name="Lab"
    )
    assert built.report["left_out"] == []  # the builder keeps every card: the export does not
    return pack_create(actor=alice, built=built)


def api_client(user: User, **defaults: Any) -> APIClient:
    client = APIClient(**defaults)
    client.force_login(user)
    return client


def image_urls(saved: dict[str, Any]) -> set[str]:
    """Every FaceURL and BackURL of a saved object, its decks' and its cards' alike."""
    urls: set[str] = set()
    for state in saved["ObjectStates"]:
        for holder in [state, *state.get("ContainedObjects", [])]:
            for sheet in holder["CustomDeck"].values():
                urls |= {sheet["FaceURL"], sheet["BackURL"]}
    return urls


def opened(response: Any) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def flat(text: str) -> str:
    return " ".join(text.split())


# -- 1. the API hosts the images as the page does ---------------------------------------------


@pytest.mark.parametrize("which", ["public_pack", "lab_pack"])
def test_an_export_made_through_the_api_loads_as_it_is(
    which: str,
    request: pytest.FixtureRequest,
    alice: User,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    pack: Pack = request.getfixturevalue(which)
    settings.TASKS = IMMEDIATE
    api = api_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post(f"/api/packs/{pack.pk}/tts/")
    assert started.status_code == 202
    body = api.get(started.json()["status_url"]).json()
    assert body["status"] == "done", body["error"]
    assert body["images"] == ("public" if which == "public_pack" else "token")
    assert body["local_only"] is False
    assert body["saved_object"] is not None

    saved = json.loads(api.get(body["saved_object"]).content)
    urls = image_urls(saved)
    assert len(urls) >= 4  # a face sheet and a back of each deck
    anyone = Client()  # Tabletop Simulator has no session
    for url in urls:
        assert url.startswith("http://testserver/tts/sheets/"), url
        image = anyone.get(url)
        assert image.status_code == 200, url
        assert image["Content-Type"].startswith("image/"), url
        body_bytes = b"".join(image.streaming_content)  # type: ignore[attr-defined]
        decoded = Image.open(io.BytesIO(body_bytes))
        assert decoded.format == "JPEG"

    archive = opened(api.get(body["download"]))
    (name,) = [n for n in archive.namelist() if n.endswith(".json")]
    assert json.loads(archive.read(name)) == saved  # the zip's saved object loads as it is
    readme = flat(archive.read("README.txt").decode())
    assert "1. Nothing to upload: each FaceURL and BackURL in the JSON is the image's" in readme
    assert "http://testserver" in readme and "Nothing is uploaded yet" not in readme


def test_the_api_and_the_page_treat_a_loopback_address_alike(
    public_pack: Pack, alice: User, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    page = Client(HTTP_HOST="127.0.0.1:8000")
    page.force_login(alice)
    assert page.post(f"/packs/{public_pack.pk}/tts/").status_code == 302
    api = api_client(alice, HTTP_HOST="127.0.0.1:8000")
    started = api.post(f"/api/packs/{public_pack.pk}/tts/").json()
    from_page, from_api = TtsExport.objects.order_by("pk")
    assert from_page.base_url == from_api.base_url == "http://127.0.0.1:8000"
    for export in (from_page, from_api):
        jobs.tts_export_run(export_id=export.pk)
        export.refresh_from_db()
        html = page.get(f"/packs/{public_pack.pk}/tts/{export.pk}/").content.decode()
        assert 'data-testid="tts-local"' in html
        body = api.get(f"/api/packs/{public_pack.pk}/tts/{export.pk}/").json()
        assert body["local_only"] is True and body["images"] == "public"
        archive = zipfile.ZipFile(io.BytesIO(export.archive.read()))
        text = flat(archive.read("README.txt").decode())
        assert "That address reaches only the computer the site runs on" in text
    assert started["local_only"] is True


# -- 2. export_pack --base-url, and READMEs that tell the truth --------------------------------


def export_with_command(tmp_path: Path, *options: str) -> tuple[zipfile.ZipFile, str]:
    target = tmp_path / "two.zip"
    out = io.StringIO()
    call_command(
        "export_pack", "--sets=munchkin-core", f"--query={QUERY}", "--name=Two of core",
        "--format=tts", f"--output={target}", *options, stdout=out,
    )  # fmt: skip
    return zipfile.ZipFile(target), out.getvalue()


def test_export_pack_with_a_base_url_points_every_image_there(
    isolated: None, core_catalog: None, tmp_path: Path
) -> None:
    archive, out = export_with_command(tmp_path, "--base-url=https://example.org/my-pack")
    saved = json.loads(archive.read("two-of-core.json"))
    urls = image_urls(saved)
    images = {name for name in archive.namelist() if name.endswith(".jpg")}
    assert {url.removeprefix("https://example.org/my-pack/") for url in urls} == images
    assert all(url.startswith("https://example.org/my-pack/") for url in urls)
    readme = flat(archive.read("README.txt").decode())
    assert (
        "1. The JSON points each FaceURL and BackURL at https://example.org/my-pack/<file name>, "
        "where the images are to be: upload the JPEG files of this zip there under the same "
        "names (the export uploads nothing)"
    ) in readme
    assert "Nothing to upload" not in readme and "Nothing is uploaded yet" not in readme
    assert "images: upload the JPEG files to https://example.org/my-pack" in out


def test_export_pack_without_a_url_says_the_images_must_be_uploaded(
    isolated: None, core_catalog: None, tmp_path: Path
) -> None:
    archive, out = export_with_command(tmp_path)
    saved = json.loads(archive.read("two-of-core.json"))
    images = {name for name in archive.namelist() if name.endswith(".jpg")}
    assert image_urls(saved) == images  # bare file names: nothing loads as it is
    readme = flat(archive.read("README.txt").decode())
    assert (
        "1. Nothing is uploaded yet: in the JSON each FaceURL and BackURL is the name of a file "
        "of this zip (door-sheet-1.jpg...), and Tabletop Simulator loads images from URLs only. "
        "Upload the JPEG files where everyone joining your game can download them (in the game: "
        "Modding > Cloud Manager; or any public image host), then replace each file name in "
        "the JSON with its URL."
    ) in readme
    assert "holds the URLs already" not in readme and "Nothing to upload" not in readme
    assert "images: not uploaded" in out and "--base-url" in out


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/pack/",
        "example.org/pack/",
        "/home/me/pack",
        "file:///C:/pack/",
        "https:///pack/",
        "https://example.org/pack/?size=big",
        "https://example.org/pack/#top",
        "https://exa mple.org/pack/",
    ],
)
def test_export_pack_refuses_a_base_url_it_cannot_use(
    isolated: None, core_catalog: None, tmp_path: Path, url: str
) -> None:
    with pytest.raises(CommandError) as refused:
        export_with_command(tmp_path, f"--base-url={url}")
    message = str(refused.value)
    assert "--base-url" in message and "an http:// or https:// address" in message
    assert repr(url) in message
    assert not (tmp_path / "two.zip").exists()


def test_a_base_url_is_for_the_tabletop_simulator_zip_only(
    isolated: None, core_catalog: None, tmp_path: Path
) -> None:
    with pytest.raises(CommandError, match="--base-url is for --format tts"):
        call_command(
            "export_pack", "--sets=munchkin-core", "--format=json",
            "--base-url=https://example.org/pack/", f"--output={tmp_path / 'p.json'}",
        )  # fmt: skip
    assert not (tmp_path / "p.json").exists()


# -- 3. the report ------------------------------------------------------------------------------


WHEN = datetime(2025, 1, 1, tzinfo=UTC)


def whole_pack(name: str, documents: list[SetDocument]) -> PackDocument:
    """Every card of the sets, each in its own deck's list at its box copies."""
    sets: list[tuple[dict[str, Any], list[CardBase]]] = [
        (d.set.model_dump(exclude_none=True), list(d.cards)) for d in documents
    ]
    decks = {
        deck: [
            (d.set.code, c.name, c.copies or 1)
            for d in documents
            for c in d.cards
            if c.deck == deck
        ]
        for deck in ("door", "treasure")
    }
    return parse_pack(build_pack(name=name, sets=sets, decks=decks, generated_at=WHEN))


def test_a_core_and_super_export_reports_its_unknown_stats_and_the_cards_it_leaves_out() -> None:
    core = load_set_file(CORE_SET)
    sup = load_set_file(FIXTURE_SETS / "munchkin-super.yaml")
    report = export_report(whole_pack("Core and Super", [core, sup]))

    def unknown(card: CardBase) -> list[str]:
        return [label.lower() for label in unknown_stats(card)]

    expected = [
        {"name": c.name, "set": d.set.code, "deck": deck, "stats": unknown(c)}
        for deck in ("door", "treasure")
        for d in (core, sup)
        for c in d.cards
        if c.deck == deck and unknown(c)
    ]
    assert report["unknown_stats"] == expected and expected  # Super has such cards
    neither = [(d.set.code, c.name) for d in (core, sup) for c in d.cards if c.deck is None]
    assert [(e["set"], e["name"]) for e in report["left_out"]] == neither and neither
    assert all(e["why"].startswith("in neither deck: ") for e in report["left_out"])


def test_each_card_left_out_says_why() -> None:
    core = load_set_file(CORE_SET)
    spongebob = load_set_file(FIXTURE_SETS / "munchkin-spongebob.yaml")
    door = next(c for c in core.cards if c.deck == "door")
    unlisted = next(c for c in core.cards if c.deck == "treasure")
    role = next(c for c in spongebob.cards if c.kind_name == "role")
    data = build_pack(
        name="Reasons",
        sets=[
            (core.set.model_dump(exclude_none=True), [door, unlisted]),
            (spongebob.set.model_dump(exclude_none=True), [role]),
        ],
        decks={"door": [(core.set.code, door.name, 1)]},
        generated_at=WHEN,
    )
    report = export_report(data)  # a document as stored, parsed here
    assert report["left_out"] == [
        {
            "name": unlisted.name,
            "set": core.set.code,
            "why": "not in the pack's Treasure deck list",
        },
        {
            "name": role.name,
            "set": spongebob.set.code,
            "why": "in neither deck: a Role card, dealt to a player apart from the Door and "
            "Treasure decks",
        },
    ]


def test_the_export_keeps_its_report_and_every_place_shows_it(
    lab_pack: Pack, alice: User, client: Client
) -> None:
    api = api_client(alice)
    started = api.post(f"/api/packs/{lab_pack.pk}/tts/").json()
    assert started["status"] == "queued" and started["report"] is None
    jobs.tts_export_run(export_id=started["id"])
    export = TtsExport.objects.get()
    assert export.status == JobStatus.DONE, export.error
    assert export.report == LAB_REPORT
    assert api.get(started["status_url"]).json()["report"] == LAB_REPORT

    client.force_login(alice)
    for page in (f"/packs/{lab_pack.pk}/", f"/packs/{lab_pack.pk}/tts/{export.pk}/"):
        html = flat(client.get(page).content.decode())
        assert 'data-testid="tts-report"' in html, page
        assert "2 cards of the pack are not in the export" in html
        assert (
            "<strong>Nameless Thing</strong> (<code>alice-lab</code>): in neither deck: which deck"
            in html
        )
        assert "2 exported cards have stats not known yet" in html
        assert (
            "<strong>Mystery Mole</strong> (<code>alice-lab</code>, Door): level, treasures" in html
        )

    readme = flat(zipfile.ZipFile(io.BytesIO(export.archive.read())).read("README.txt").decode())
    assert (
        "Left out: These cards of the pack are not in the export: - Lab Director (alice-lab, "
        "Role): in neither deck: a Role card, dealt to a player apart from the Door and "
        "Treasure decks."
    ) in readme
    assert (
        "- Nameless Thing (alice-lab, Unknown): in neither deck: which deck it belongs to" in readme
    )
    assert "Stats not known yet: These cards are exported" in readme
    assert (
        "- Mystery Mole (alice-lab): level, treasures - Odd Trinket (alice-lab): bonus, slot, gold"
        in readme
    )


def test_an_export_with_nothing_to_report_says_so(
    public_pack: Pack, alice: User, client: Client
) -> None:
    export = jobs.tts_export_start(pack=public_pack, actor=alice, base_url="http://testserver")
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.report == {"unknown_stats": [], "left_out": []}
    client.force_login(alice)
    html = client.get(f"/packs/{public_pack.pk}/").content.decode()
    assert "Every card of the pack is in the export's Door or Treasure deck." in html
    assert "Every exported card's stats are known." in html


def test_an_export_made_before_reports_shows_none(
    public_pack: Pack, alice: User, client: Client
) -> None:
    export = jobs.tts_export_start(pack=public_pack, actor=alice, base_url="http://testserver")
    jobs.tts_export_run(export_id=export.pk)
    TtsExport.objects.filter(pk=export.pk).update(report=None)
    client.force_login(alice)
    page = client.get(f"/packs/{public_pack.pk}/")
    assert page.status_code == 200 and 'data-testid="tts-report"' not in page.content.decode()
    body = api_client(alice).get(f"/api/packs/{public_pack.pk}/tts/{export.pk}/").json()
    assert body["report"] is None


def test_export_pack_prints_the_report(lab_pack: Pack, alice: User, tmp_path: Path) -> None:
    out = io.StringIO()
    call_command(
        "export_pack", f"--sets=munchkin-core,{LAB}", f"--query={QUERY} or set:{LAB}",
        "--format=tts", f"--output={tmp_path / 'lab.zip'}", stdout=out,
    )  # fmt: skip
    lines = out.getvalue().splitlines()
    assert (
        "  not in the Tabletop Simulator export: Nameless Thing (alice-lab): in neither deck: "
        "which deck it belongs to (Door or Treasure) is not known yet"
    ) in lines
    assert (
        "  stats not known yet ('?' or 'unknown' on its face): Odd Trinket (alice-lab): "
        "bonus, slot, gold"
    ) in lines
    readme = zipfile.ZipFile(tmp_path / "lab.zip").read("README.txt").decode()
    assert "Mystery Mole (alice-lab): level, treasures" in readme


def test_the_schema_documents_the_report() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    schemas = schema["components"]["schemas"]
    assert "report" in schemas["TtsExportOutput"]["properties"]
    assert set(schemas["TtsReportOutput"]["properties"]) == {"unknown_stats", "left_out"}
    assert set(schemas["TtsLeftOutOutput"]["properties"]) == {"name", "set", "why"}
    assert set(schemas["TtsUnknownStatsOutput"]["properties"]) == {"name", "set", "deck", "stats"}
