"""Tabletop Simulator exports in the background (issue 20, item 3): queued, running with its
progress, done with a zip that opens, or failed saying why; a few per user; someone else's
pack or export is a 404; the faces drawn ahead are used and only the others drawn; finished
zips expire."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.limits import BUSY_RETRY_SECONDS
from catalog.exports import exporter_get
from catalog.models import Card
from packs.models import Pack, TtsExport
from packs.selectors import pack_drawn_faces
from packs.services import pack_build, pack_create
from packs.tts import exporter, jobs
from prints.background import STALE_AFTER
from prints.drawing import faces_draw
from prints.faces import render_face
from prints.models import JobStatus
from validator.engine import CardBase, parse_pack

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
# Six cards of the core set: four monsters (the Door deck) and two items (the Treasure deck).
QUERY = (
    '!"Net Troll" or !"Crabs" or !"Maul Rat" or !"Large Angry Chicken" '
    'or !"Boots of Butt-Kicking" or !"Cloak of Obscurity"'
)


@pytest.fixture
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return Path(settings.MEDIA_ROOT)


@pytest.fixture
def faces_cache(settings: Any, tmp_path: Path) -> None:
    """An empty faces cache of this test's own (the site's is shared by every process)."""
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }


@pytest.fixture
def queued(settings: Any, media: Path, faces_cache: None) -> None:
    """Exports stay queued: no worker runs them."""
    settings.TASKS = DUMMY


@pytest.fixture
def pack(core_catalog: None, alice: User) -> Pack:
    built = pack_build(actor=alice, set_codes=["munchkin-core"], query=QUERY, name="Six of core")
    return pack_create(actor=alice, built=built)


def distinct_faces(pack: Pack) -> int:
    decks = pack.document["decks"]
    return len(decks["door"]) + len(decks["treasure"])


def stored(export: TtsExport) -> bool:
    return bool(export.archive.name) and default_storage.exists(str(export.archive.name))


def opened(data: bytes) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(data))


def export_page(export: TtsExport) -> str:
    return f"/packs/{export.pack_id}/tts/{export.pk}/"


def api_status(export: TtsExport) -> str:
    return f"/api/packs/{export.pack_id}/tts/{export.pk}/"


def api_client(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


# -- the job's life ---------------------------------------------------------------------------


def test_an_export_is_queued_then_made_into_a_zip_that_opens(
    pack: Pack, alice: User, queued: None, client: Client
) -> None:
    client.force_login(alice)
    response = client.post(f"/packs/{pack.pk}/tts/")
    export = TtsExport.objects.get()
    assert response.status_code == 302 and response["Location"] == export_page(export)
    assert export.status == JobStatus.QUEUED and export.owner == alice
    assert export.total == distinct_faces(pack) == 6
    page = client.get(export_page(export))
    assert '<meta http-equiv="refresh" content="2">' in page.content.decode()
    assert "no-store" in page["Cache-Control"]

    jobs.tts_export_run(export_id=export.pk)

    export.refresh_from_db()
    assert export.status == JobStatus.DONE and export.error == ""
    assert export.done == export.total == 6 and export.finished_at is not None
    assert stored(export)
    html = client.get(export_page(export)).content.decode()
    assert 'data-testid="tts-download"' in html and "refresh" not in html
    download = client.get(f"/packs/{pack.pk}/tts/{export.pk}/download.zip")
    assert download.status_code == 200 and download["Content-Type"] == "application/zip"
    assert 'filename="six-of-core-tts.zip"' in download["Content-Disposition"]
    assert "private" in download["Cache-Control"]
    archive = opened(b"".join(download.streaming_content))  # type: ignore[attr-defined]
    names = set(archive.namelist())
    assert {"README.txt", "six-of-core.json", "door-sheet-1.jpg", "treasure-sheet-1.jpg"} <= names
    saved = json.loads(archive.read("six-of-core.json"))
    nicknames = {
        card["Nickname"] for deck in saved["ObjectStates"] for card in deck["ContainedObjects"]
    }
    document = parse_pack(pack.document)
    assert nicknames == {entry.name for entry in [*document.decks.door, *document.decks.treasure]}


def test_progress_is_written_while_the_faces_are_laid_out(
    pack: Pack, alice: User, queued: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    export = jobs.tts_export_start(pack=pack, actor=alice)
    seen: list[tuple[str, int, int]] = []
    writer = jobs.progress_writer

    def observed(export_id: int) -> Callable[[int, int], None]:
        write = writer(export_id)

        def progress(done: int, total: int) -> None:
            write(done, total)
            row = TtsExport.objects.get(pk=export_id)
            seen.append((row.status, row.done, row.total))

        return progress

    monkeypatch.setattr(jobs, "progress_writer", observed)
    monkeypatch.setattr(jobs, "PROGRESS_SECONDS", 0.0)
    jobs.tts_export_run(export_id=export.pk)
    assert seen == [(JobStatus.RUNNING, done, 6) for done in range(1, 7)]


def test_progress_writes_are_throttled_but_the_last_face_is_written(
    pack: Pack, alice: User, queued: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    export = jobs.tts_export_start(pack=pack, actor=alice)
    TtsExport.objects.filter(pk=export.pk).update(status=JobStatus.RUNNING)
    now = [100.0]
    monkeypatch.setattr(jobs, "clock", lambda: now[0])
    progress = jobs.progress_writer(export.pk)
    progress(1, 6)  # at once: not written
    export.refresh_from_db()
    assert export.done == 0
    now[0] += jobs.PROGRESS_SECONDS
    progress(2, 6)
    export.refresh_from_db()
    assert export.done == 2
    progress(6, 6)  # the last face, however soon
    export.refresh_from_db()
    assert export.done == 6


def test_the_immediate_backend_runs_a_started_export(
    pack: Pack,
    alice: User,
    settings: Any,
    media: Path,
    faces_cache: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.TASKS = IMMEDIATE
    with django_capture_on_commit_callbacks(execute=True):
        export = jobs.tts_export_start(pack=pack, actor=alice)
    export.refresh_from_db()
    assert export.status == JobStatus.DONE and stored(export)


def test_a_pack_that_does_not_load_fails_the_export_saying_why(
    pack: Pack, alice: User, queued: None, client: Client
) -> None:
    export = jobs.tts_export_start(pack=pack, actor=alice)
    Pack.objects.filter(pk=pack.pk).update(document={**pack.document, "sha256": "0" * 64})
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == JobStatus.FAILED and not export.archive
    assert export.error.startswith("The export failed: ValueError: the pack does not load")
    assert "sha256" in export.error
    client.force_login(alice)
    html = client.get(export_page(export)).content.decode()
    assert 'data-testid="tts-error"' in html and "the pack does not load" in html
    assert "refresh" not in html and 'data-testid="tts-download"' not in html
    assert client.get(f"/packs/{pack.pk}/tts/{export.pk}/download.zip").status_code == 404
    answer = api_client(alice).get(api_status(export)).json()
    assert answer["status"] == "failed" and answer["download"] is None
    assert "the pack does not load" in answer["error"]


def test_a_task_delivered_twice_renders_once(pack: Pack, alice: User, queued: None) -> None:
    export = jobs.tts_export_start(pack=pack, actor=alice)
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    first = export.archive.name
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.archive.name == first and export.status == JobStatus.DONE


# -- the faces drawn ahead --------------------------------------------------------------------


def counted_drawing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []

    def counting(card: CardBase, set_code: str) -> Any:
        drawn.append(card.name)
        return render_face(card, set_code)

    monkeypatch.setattr(exporter, "render_face", counting)
    return drawn


def test_faces_drawn_ahead_are_used_and_only_the_others_drawn(
    pack: Pack, alice: User, queued: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = sorted(
        entry["name"] for deck in ("door", "treasure") for entry in pack.document["decks"][deck]
    )
    cold = exporter_get("pack-tts").render(document=pack.document)

    ahead = list(Card.objects.filter(card_set__code="munchkin-core", name__in=names[:4]))
    assert faces_draw(cards=ahead, workers=1) == 4
    drawn = counted_drawing(monkeypatch)
    export = jobs.tts_export_start(pack=pack, actor=alice)
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == JobStatus.DONE and export.drawn_ahead == 4
    assert sorted(drawn) == names[4:]
    # The same zip, byte for byte, whichever faces were drawn ahead.
    assert export.archive.read() == cold[2]


def test_a_face_drawn_for_another_document_or_with_art_is_not_used(
    pack: Pack, queued: None
) -> None:
    cards = Card.objects.filter(card_set__code="munchkin-core", name__in=["Net Troll", "Crabs"])
    faces_draw(cards=list(cards), workers=1)
    assert len(pack_drawn_faces(document=pack.document)) == 2
    document = json.loads(json.dumps(pack.document))
    for card_set in document["sets"]:
        for card in card_set["cards"]:
            if card["name"] == "Net Troll":
                card["level"] = 11  # the pack's Net Troll is no longer the catalog's
    Card.objects.filter(card_set__code="munchkin-core", name="Crabs").update(art="art/crabs.png")
    assert len(pack_drawn_faces(document=document)) == 0


# -- limits and privacy -----------------------------------------------------------------------


def test_a_user_past_the_limit_is_told_when_to_retry_and_nothing_is_queued(
    pack: Pack, alice: User, bob: User, queued: None, settings: Any, client: Client
) -> None:
    settings.TTS_EXPORTS_PER_USER = 2
    client.force_login(alice)
    for _ in range(2):
        assert client.post(f"/packs/{pack.pk}/tts/").status_code == 302
    refused = client.post(f"/packs/{pack.pk}/tts/")
    assert refused.status_code == 429 and refused["Retry-After"] == str(BUSY_RETRY_SECONDS)
    text = refused.content.decode()
    assert "the most one user may have at a time (2)" in text
    assert f"Try again in {BUSY_RETRY_SECONDS} seconds" in text
    answer = api_client(alice).post(f"/api/packs/{pack.pk}/tts/")
    assert answer.status_code == 429 and answer["Retry-After"] == str(BUSY_RETRY_SECONDS)
    assert answer.json()["object"] == "error" and answer.json()["code"] == "throttled"
    assert TtsExport.objects.filter(owner=alice).count() == 2

    bobs = pack_create(
        actor=bob, built=pack_build(actor=bob, set_codes=["munchkin-core"], query=QUERY)
    )
    assert api_client(bob).post(f"/api/packs/{bobs.pk}/tts/").status_code == 202

    TtsExport.objects.filter(owner=alice).update(status=JobStatus.DONE, finished_at=timezone.now())
    assert client.post(f"/packs/{pack.pk}/tts/").status_code == 302  # finished ones do not count


def test_lost_exports_fail_and_stop_counting(
    pack: Pack, alice: User, queued: None, settings: Any
) -> None:
    settings.TTS_EXPORTS_PER_USER = 1
    lost = TtsExport.objects.create(pack=pack, owner=alice, status=JobStatus.RUNNING)
    TtsExport.objects.filter(pk=lost.pk).update(
        started_at=timezone.now() - STALE_AFTER - timedelta(minutes=1)
    )
    jobs.tts_export_start(pack=pack, actor=alice)
    lost.refresh_from_db()
    assert lost.status == JobStatus.FAILED and "lost" in lost.error


def test_another_user_can_neither_start_nor_read_an_export_of_a_private_pack(
    pack: Pack, alice: User, bob: User, queued: None, client: Client
) -> None:
    export = jobs.tts_export_start(pack=pack, actor=alice)
    jobs.tts_export_run(export_id=export.pk)
    client.force_login(bob)
    assert client.post(f"/packs/{pack.pk}/tts/").status_code == 404
    assert client.get(export_page(export)).status_code == 404
    assert client.get(f"/packs/{pack.pk}/tts/{export.pk}/download.zip").status_code == 404
    assert client.get(f"/packs/{pack.pk}/download.tts").status_code == 404
    api = api_client(bob)
    for answer in (
        api.post(f"/api/packs/{pack.pk}/tts/"),
        api.get(api_status(export)),
        api.get(api_status(export) + "download.zip"),
    ):
        assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
        assert answer.json()["object"] == "error" and answer.json()["status"] == 404
    assert TtsExport.objects.count() == 1

    anonymous = Client()
    assert anonymous.post(f"/packs/{pack.pk}/tts/").status_code == 302  # to log in
    assert APIClient().post(f"/api/packs/{pack.pk}/tts/").status_code == 401


# -- the API ----------------------------------------------------------------------------------


def test_the_api_starts_an_export_and_reads_it_to_the_download(
    pack: Pack, alice: User, queued: None
) -> None:
    api = api_client(alice)
    started = api.post(f"/api/packs/{pack.pk}/tts/")
    assert started.status_code == 202
    body = started.json()
    export = TtsExport.objects.get()
    assert started["Location"] == body["status_url"] == f"http://testserver{api_status(export)}"
    assert body["object"] == "tts_export" and body["id"] == export.pk and body["pack"] == pack.pk
    assert body["status"] == "queued" and (body["done"], body["total"]) == (0, 6)
    assert body["download"] is None and body["expires_at"] is None
    assert body["url"] == f"http://testserver{export_page(export)}"
    early = api.get(api_status(export) + "download.zip")
    assert early.status_code == 409 and early.json()["code"] == "conflict"

    jobs.tts_export_run(export_id=export.pk)
    done = api.get(api_status(export)).json()
    assert done["status"] == "done" and done["done"] == done["total"] == 6
    assert done["expires_at"] is not None
    assert done["download"] == f"http://testserver{api_status(export)}download.zip"
    archive = api.get(done["download"])
    assert archive.status_code == 200 and archive["Content-Type"] == "application/zip"
    content = b"".join(archive.streaming_content)  # type: ignore[attr-defined]
    assert "six-of-core.json" in opened(content).namelist()


def test_the_pack_api_points_at_the_export(pack: Pack, alice: User) -> None:
    body = api_client(alice).get(f"/api/packs/{pack.pk}/").json()
    assert body["downloads"]["tts"] == f"http://testserver/api/packs/{pack.pk}/tts/"


def test_the_schema_documents_the_export_endpoints() -> None:
    response = APIClient().get("/api/schema/", {"format": "json"})
    paths = response.json()["paths"]
    start = paths["/api/packs/{pack_id}/tts/"]["post"]["responses"]
    assert {"202", "404", "429"} <= set(start)
    assert "get" in paths["/api/packs/{pack_id}/tts/{export_id}/"]
    download = paths["/api/packs/{pack_id}/tts/{export_id}/download.zip"]["get"]["responses"]
    assert "application/zip" in download["200"]["content"] and "409" in download
    fields = response.json()["components"]["schemas"]["TtsExportOutput"]["properties"]
    assert {"status", "done", "total", "download", "status_url", "expires_at"} <= set(fields)


def test_export_pack_writes_the_zip_at_once(
    core_catalog: None, faces_cache: None, tmp_path: Path
) -> None:
    out = io.StringIO()
    target = tmp_path / "six.zip"
    call_command(
        "export_pack",
        "--sets=munchkin-core",
        f"--query={QUERY}",
        "--name=Six of core",
        "--format=tts",
        f"--output={target}",
        stdout=out,
    )
    assert f"wrote {target}: Six of core: 6 cards" in out.getvalue()
    archive = zipfile.ZipFile(target)
    saved = json.loads(archive.read("six-of-core.json"))
    assert sum(len(deck["ContainedObjects"]) for deck in saved["ObjectStates"]) == sum(
        card.copies or 1
        for card in Card.objects.filter(
            card_set__code="munchkin-core",
            name__in=[
                "Net Troll",
                "Crabs",
                "Maul Rat",
                "Large Angry Chicken",
                "Boots of Butt-Kicking",
                "Cloak of Obscurity",
            ],
        )
    )
    assert {"door-sheet-1.jpg", "treasure-sheet-1.jpg"} <= set(archive.namelist())


# -- the pages --------------------------------------------------------------------------------


def test_the_pack_page_offers_the_export_and_the_old_address_leads_there(
    pack: Pack, alice: User, queued: None, client: Client
) -> None:
    client.force_login(alice)
    html = client.get(f"/packs/{pack.pk}/").content.decode()
    assert f'action="/packs/{pack.pk}/tts/"' in html and 'data-testid="tts-start"' in html
    old = client.get(f"/packs/{pack.pk}/download.tts")
    assert old.status_code == 302
    assert old["Location"] == f"/packs/{pack.pk}/#tabletop-simulator"
    export = jobs.tts_export_start(pack=pack, actor=alice)
    listed = client.get(f"/packs/{pack.pk}/").content.decode()
    assert export_page(export) in listed


# -- expiry -----------------------------------------------------------------------------------


def finished_export(pack: Pack, owner: User, *, hours_ago: float) -> TtsExport:
    export = TtsExport.objects.create(pack=pack, owner=owner, status=JobStatus.DONE)
    export.archive.save(f"{export.pk}-pack-tts.zip", ContentFile(b"PK zip"), save=False)
    TtsExport.objects.filter(pk=export.pk).update(
        archive=export.archive.name, finished_at=timezone.now() - timedelta(hours=hours_ago)
    )
    export.refresh_from_db()
    return export


@pytest.fixture
def keep_a_day(settings: Any, media: Path) -> Iterator[None]:
    settings.TTS_EXPORT_KEEP_HOURS = 24
    yield


def test_an_export_deletes_the_expired_ones_and_their_zips(
    pack: Pack, alice: User, queued: None, keep_a_day: None
) -> None:
    old = finished_export(pack, alice, hours_ago=25)
    recent = finished_export(pack, alice, hours_ago=23)
    assert stored(old)
    export = jobs.tts_export_start(pack=pack, actor=alice)
    jobs.tts_export_run(export_id=export.pk)
    assert set(TtsExport.objects.values_list("pk", flat=True)) == {recent.pk, export.pk}
    assert not stored(old)
    assert stored(recent)


def test_prune_tts_exports_deletes_them_on_a_schedule(
    pack: Pack, alice: User, keep_a_day: None
) -> None:
    old = finished_export(pack, alice, hours_ago=30)
    kept = finished_export(pack, alice, hours_ago=2)
    out = io.StringIO()
    call_command("prune_tts_exports", stdout=out)
    assert "Deleted 1 Tabletop Simulator export finished more than 24 hours ago" in out.getvalue()
    assert list(TtsExport.objects.values_list("pk", flat=True)) == [kept.pk]
    assert not stored(old)


def test_an_expired_zip_is_no_longer_served(
    pack: Pack, alice: User, keep_a_day: None, client: Client
) -> None:
    fresh = finished_export(pack, alice, hours_ago=1)
    stale = finished_export(pack, alice, hours_ago=25)  # not pruned yet
    client.force_login(alice)
    page = client.get(export_page(fresh)).content.decode()
    assert 'data-testid="tts-expires"' in page and "then deleted" in page
    assert client.get(f"/packs/{pack.pk}/tts/{fresh.pk}/download.zip").status_code == 200
    assert client.get(f"/packs/{pack.pk}/tts/{stale.pk}/download.zip").status_code == 404
    assert 'data-testid="tts-expired"' in client.get(export_page(stale)).content.decode()
    assert api_client(alice).get(api_status(stale)).json()["download"] is None
