"""Bulk data: every public card, every public set with its cards and the official sets' pack
as gzip-compressed JSON files, listed with their digests, made again after changes."""

import gzip
import hashlib
import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from bulk.models import BulkFile
from bulk.services import bulk_data_refresh
from bulk.tasks import LAST_START, bulk_data_queue
from catalog.changes import CatalogChange
from catalog.models import Card
from catalog.services import card_create, card_update, set_create, set_delete, set_update
from catalog.validation import cards_validate_saved
from tests.conftest import CORE_SET
from tests.factories import monster_document
from validator.engine import parse_pack

pytestmark = pytest.mark.django_db

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return Path(settings.MEDIA_ROOT)


def core_card_names() -> set[str]:
    """The core set's card names, read from its set file (not through the site)."""
    document = yaml.safe_load(CORE_SET.read_text())
    return {card["name"] for card in document["cards"]}


def listing(client: Client) -> dict[str, Any]:
    response = client.get("/api/bulk-data/")
    assert response.status_code == 200
    body = response.json()
    assert body["object"] == "list"
    return {entry["type"]: entry for entry in body["data"]}


def download(client: Client, entry: dict[str, Any]) -> bytes:
    response = client.get(entry["download_uri"])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    # Kept by caches an hour at most: a set in it may stop being public (issue 34, item 8).
    assert response["Cache-Control"] == "public, max-age=3600"
    return response.getvalue()


def test_each_file_is_listed_with_the_digest_and_size_of_its_bytes(
    client: Client, core_catalog: None
) -> None:
    bulk_data_refresh()
    entries = listing(client)
    assert set(entries) == {"cards", "sets", "official_pack"}
    for entry in entries.values():
        content = download(client, entry)
        assert hashlib.sha256(content).hexdigest() == entry["sha256"]
        assert len(content) == entry["size"]
        assert entry["sha256"][:20] in entry["download_uri"]  # named by its content
        json.loads(gzip.decompress(content))  # gzip-compressed JSON


def test_the_cards_file_holds_every_public_card_and_no_private_one(
    client: Client, core_catalog: None, alice: User
) -> None:
    public = set_create(owner=alice, code="open", name="Open", visibility="public")
    card_create(card_set=public, actor=alice, document=monster_document("Open Ogre"))
    private = set_create(owner=alice, code="shut", name="Shut", visibility="private")
    card_create(card_set=private, actor=alice, document=monster_document("Secret Ogre"))
    unlisted = set_create(owner=alice, code="link", name="Link", visibility="unlisted")
    card_create(card_set=unlisted, actor=alice, document=monster_document("Linked Ogre"))
    bulk_data_refresh()
    entry = listing(client)["cards"]
    cards = json.loads(gzip.decompress(download(client, entry)))
    names = {card["name"] for card in cards}
    assert names == core_card_names() | {"Open Ogre"}
    assert entry["items"] == len(cards)
    ogre = next(card for card in cards if card["name"] == "Open Ogre")
    assert (ogre["object"], ogre["set"], ogre["level"], ogre["treasures"]) == (
        "card",
        "alice-open",
        7,
        2,
    )


def test_the_sets_file_holds_each_public_set_with_its_cards(
    client: Client, core_catalog: None
) -> None:
    bulk_data_refresh(kinds=["sets"])
    sets = json.loads(gzip.decompress(download(client, listing(client)["sets"])))
    assert [s["code"] for s in sets] == ["munchkin-core"]
    assert {card["name"] for card in sets[0]["cards"]} == core_card_names()


def test_the_official_pack_is_an_engine_ready_pack(client: Client, core_catalog: None) -> None:
    bulk_data_refresh(kinds=["official_pack"])
    entry = listing(client)["official_pack"]
    pack = parse_pack(json.loads(gzip.decompress(download(client, entry))))  # checksum too
    names = [card.name for pack_set in pack.sets for card in pack_set.cards]
    assert [s.code for s in pack.sets] == ["munchkin-core"]
    assert set(names) <= core_card_names()
    assert len(names) == entry["items"] > 100


def test_unchanged_sources_write_nothing_and_a_change_writes_a_new_name(
    client: Client, core_catalog: None, media: Path
) -> None:
    first = {r.kind: r for r in bulk_data_refresh()}
    assert all(r.written for r in first.values())
    again = {r.kind: r for r in bulk_data_refresh()}
    assert not any(r.written for r in again.values())
    old_entry = listing(client)["cards"]

    staff = User.objects.create_user("curator", is_staff=True, is_superuser=True)
    card = Card.objects.get(name="Bullrog")
    document = dict(card.document, treasures=card.document["treasures"] + 1)
    card_update(card=card, actor=staff, document=document, base_revision=card.revision)
    changed = {r.kind: r for r in bulk_data_refresh()}
    assert changed["cards"].written and changed["sets"].written
    new_entry = listing(client)["cards"]
    assert new_entry["download_uri"] != old_entry["download_uri"]
    # A download that started before the change still finds the old file.
    assert client.get(old_entry["download_uri"]).status_code == 200


@pytest.mark.parametrize("hide", ["private", "unlisted", "deleted"])
def test_no_file_answers_with_a_set_that_is_no_longer_public(
    client: Client, core_catalog: None, alice: User, hide: str
) -> None:
    shown = set_create(owner=alice, code="open", name="Open", visibility="public")
    card_create(card_set=shown, actor=alice, document=monster_document("Open Ogre"))
    bulk_data_refresh()
    before = listing(client)
    for kind in ("cards", "sets"):
        assert b"Open Ogre" in gzip.decompress(download(client, before[kind]))

    if hide == "deleted":
        set_delete(card_set=shown, actor=alice)
    else:
        set_update(card_set=shown, actor=alice, visibility=hide)

    # Before the files are made again (the task runs later), and after.
    for refreshed in (False, True):
        if refreshed:
            bulk_data_refresh()
        for kind in ("cards", "sets"):
            response = client.get(before[kind]["download_uri"])
            assert response.status_code == 410, (kind, refreshed)
            error = response.json()
            assert error["code"] == "gone"
            assert "no longer public" in error["errors"][0]["message"]
    after = listing(client)
    for kind in ("cards", "sets"):
        assert b"Open Ogre" not in gzip.decompress(download(client, after[kind]))
    # The official pack holds none of her sets: it still answers.
    assert client.get(before["official_pack"]["download_uri"]).status_code == 200


def test_a_catalog_change_queues_the_files_once_the_write_commits(
    client: Client,
    core_catalog: None,
    alice: User,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.TASKS = IMMEDIATE
    settings.BULK_DATA_AHEAD = True
    public = set_create(owner=alice, code="open", name="Open", visibility="public")
    with django_capture_on_commit_callbacks(execute=True):
        card_create(card_set=public, actor=alice, document=monster_document("Fresh Ogre"))
    cards = json.loads(gzip.decompress(download(client, listing(client)["cards"])))
    assert "Fresh Ogre" in {card["name"] for card in cards}


def test_a_site_without_official_sets_still_lists_its_cards(client: Client, alice: User) -> None:
    public = set_create(owner=alice, code="open", name="Open", visibility="public")
    card_create(card_set=public, actor=alice, document=monster_document("Lone Ogre"))
    kinds = [refreshed.kind for refreshed in bulk_data_refresh()]
    assert kinds == ["cards", "sets"]  # no official pack to build
    cards = json.loads(gzip.decompress(download(client, listing(client)["cards"])))
    assert [card["name"] for card in cards] == ["Lone Ogre"]
    assert "official_pack" not in listing(client)


def test_the_command_reports_each_file(core_catalog: None) -> None:
    out = io.StringIO()
    call_command("bulk_data", stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert "cards: written" in text and "official_pack: written" in text
    row = BulkFile.objects.get(kind="cards")
    assert row.sha256 in text
    out = io.StringIO()
    call_command("bulk_data", "cards", stdout=out, stderr=io.StringIO())
    assert out.getvalue().startswith("cards: unchanged")


def test_the_command_names_the_kinds_it_knows(core_catalog: None) -> None:
    with pytest.raises(Exception, match="no bulk data kind 'cardz'; kinds: cards, sets"):
        call_command("bulk_data", "cardz", stdout=io.StringIO())


def test_an_unknown_file_is_the_api_404(client: Client, db: None) -> None:
    response = client.get("/api/bulk-data/files/cards-0000.json.gz")
    assert response.status_code == 404
    assert response.json()["object"] == "error"
    assert listing(client) == {}


def test_a_card_checked_after_its_save_shows_checked_once_the_check_is_stored(
    client: Client,
    core_catalog: None,
    alice: User,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    public = set_create(owner=alice, code="open", name="Open", visibility="public")
    card = card_create(card_set=public, actor=alice, document=monster_document("Late Ogre"))
    bulk_data_refresh()

    def late_ogre() -> dict[str, Any]:
        cards = json.loads(gzip.decompress(download(client, listing(client)["cards"])))
        found: dict[str, Any] = next(c for c in cards if c["name"] == "Late Ogre")
        return found

    assert late_ogre()["validation"] == "unchecked"
    settings.TASKS = IMMEDIATE
    settings.BULK_DATA_AHEAD = True
    with django_capture_on_commit_callbacks(execute=True):
        cards_validate_saved(card_ids=[card.pk])
    assert late_ogre()["validation"] in {"pass", "warn"}  # a plain Level 7 monster


DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def test_runs_start_at_most_once_an_interval(db: None, settings: Any) -> None:
    settings.TASKS = DATABASE
    settings.BULK_DATA_AHEAD = True
    settings.BULK_DATA_INTERVAL = 60
    cache.set(LAST_START, time.time() - 10, timeout=None)  # a run started 10 s ago
    bulk_data_queue(CatalogChange())
    bulk_data_queue(CatalogChange())  # a second change while the first run is queued: nothing more
    queued = [row.task_result for row in DBTaskResult.objects.all()]
    assert [result.task.name for result in queued] == ["refresh_bulk_data"]
    run_after = queued[0].task.run_after
    assert run_after is not None
    wait = (run_after - timezone.now()).total_seconds()
    assert 45 < wait <= 50  # the 60 s interval less the 10 s already gone


def test_a_run_long_after_the_last_starts_at_once(db: None, settings: Any) -> None:
    settings.TASKS = DATABASE
    settings.BULK_DATA_AHEAD = True
    cache.set(LAST_START, time.time() - 3600, timeout=None)
    bulk_data_queue(CatalogChange())
    (queued,) = [row.task_result for row in DBTaskResult.objects.all()]
    assert queued.task.name == "refresh_bulk_data"
    assert queued.task.run_after is None
