"""`backup` and `restore`: backing up, wiping and restoring gives back every user, set, card,
revision, scenario and pack; a restore into a non-empty database or from a bad file is refused
and writes nothing."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import ApiToken, CodeScope, new_token_key, token_digest
from authoring.models import CardScenario, ScenarioStatus
from cardsite.operations.backup import FORMAT, VERSION, write_backup
from catalog.models import Card, CardFacet, CardRevision, CardSet, CardTag, Visibility
from catalog.selectors import card_search
from catalog.services import card_create, card_delete, card_update, set_create, set_delete
from packs.models import Pack, PackSimulation
from packs.services import pack_build, pack_create
from prints.models import ProxyJob
from tests.factories import monster_document
from validator.models import CardCheck


def _records(rows: Any) -> list[str]:
    """Rows as sorted JSON texts, so lists holding None, dicts and times compare whole."""
    return sorted(json.dumps(row, sort_keys=True, default=str) for row in rows)


def snapshot() -> dict[str, list[str]]:
    """Everything a restore must give back, without database ids."""
    card_key = ("card__card_set__code", "card__name", "card__created_at")
    return {
        "users": _records(
            User.objects.values(
                "username",
                "password",
                "email",
                "is_staff",
                "is_superuser",
                "is_active",
                "date_joined",
                "last_login",
            )
        ),
        "sets": _records(
            CardSet.everything.values(
                "code",
                "name",
                "cards_in_box",
                "official",
                "year",
                "description",
                "owner__username",
                "visibility",
                "deleted_at",
                "created_at",
                "updated_at",
            )
        ),
        "cards": _records(
            {
                **row,
                "tag_rows": sorted(
                    CardTag.objects.filter(card_id=row["id"]).values_list("tag", flat=True)
                ),
                "facets": sorted(
                    CardFacet.objects.filter(card_id=row["id"]).values_list("facet", "value")
                ),
                "id": None,
            }
            for row in Card.everything.values(
                "id",
                "card_set__code",
                "name",
                "slug",
                "document",
                "document_hash",
                "language_version",
                "deck",
                "kind",
                "copies",
                "level",
                "treasures",
                "levels_gained",
                "bonus",
                "gold",
                "slot",
                "big",
                "tags",
                "encoding",
                "text",
                "revision",
                "art",
                "deleted_at",
                "created_at",
                "updated_at",
            )
        ),
        "revisions": _records(
            CardRevision.objects.values(
                *card_key,
                "number",
                "document",
                "document_hash",
                "changed_by__username",
                "changed_at",
                "source",
            )
        ),
        "scenarios": _records(
            CardScenario.objects.values(
                *card_key,
                "name",
                "text",
                "created_by__username",
                "created_at",
                "updated_at",
                "last_status",
                "last_messages",
                "last_values",
                "last_run_at",
                "last_card_revision",
            )
        ),
        "packs": _records(
            Pack.objects.values(
                "owner__username",
                "name",
                "selection",
                "document",
                "sha256",
                "card_count",
                "door_copies",
                "treasure_copies",
                "created_at",
            )
        ),
    }


def wipe() -> None:
    """Delete every row a restore concerns, dependents first, users last."""
    PackSimulation.objects.all().delete()
    ProxyJob.objects.all().delete()
    Pack.objects.all().delete()
    CardScenario.objects.all().delete()
    CardCheck.objects.all().delete()
    CardTag.objects.all().delete()
    CardFacet.objects.all().delete()
    CardRevision.objects.all().delete()
    Card.everything.all().delete()
    CardSet.everything.all().delete()
    ApiToken.objects.all().delete()
    Session.objects.all().delete()
    User.objects.all().delete()


@pytest.fixture
def site(db: None) -> None:
    """The whole official catalog, and two users' custom sets with a history."""
    call_command("load_catalog", stdout=io.StringIO())
    alice = User.objects.create_user("alice", password="alice-pw", email="a@example.org")
    bob = User.objects.create_user("bob", password="bob-pw")
    User.objects.create_user("stella", password="pw", is_staff=True)
    User.objects.create_user("gone", password="pw", is_active=False)
    ApiToken.objects.create(
        user=alice, name="script", digest=token_digest(new_token_key()), hint="mk_abc"
    )

    ours = set_create(owner=alice, code="alice-set", name="Alice's", visibility=Visibility.PUBLIC)
    ogre = card_create(card_set=ours, actor=alice, document=monster_document("Swamp Ogre"))
    for level in (8, 9, 10):
        ogre = card_update(
            card=ogre,
            actor=alice,
            document=monster_document("Swamp Ogre", level=level, tags=["undead"]),
            base_revision=ogre.revision,
        )
    gone = card_create(card_set=ours, actor=alice, document=monster_document("Old Ogre"))
    card_delete(card=gone, actor=alice)
    CardScenario.objects.create(
        card=ogre,
        name="beats a level 1",
        text="players: []\n",
        created_by=alice,
        last_status=ScenarioStatus.FAIL,
        last_messages=["expected win"],
        last_values={"winner": None, "log": ["a", "b"]},
        last_card_revision=3,
    )
    pack_create(
        actor=alice,
        built=pack_build(actor=alice, set_codes=["alice-set"], include_failing=True),
    )

    theirs = set_create(owner=bob, code="bob-set", name="Bob's", visibility=Visibility.UNLISTED)
    troll = card_create(card_set=theirs, actor=bob, document=monster_document("Hill Troll"))
    card_update(
        card=troll,
        actor=bob,
        document=monster_document("Hill Troll", level=3),
        base_revision=troll.revision,
    )
    hidden = set_create(owner=bob, code="bob-hidden", name="Hidden", visibility=Visibility.PRIVATE)
    card_create(card_set=hidden, actor=bob, document=monster_document("Cave Troll"))
    set_delete(card_set=hidden, actor=bob)


def run_backup(path: Path) -> str:
    out = io.StringIO()
    call_command("backup", "--output", str(path), stdout=out)
    return out.getvalue()


def run_restore(path: Path) -> str:
    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("name", ["site.json", "site.json.gz"])
def test_backup_wipe_restore_gives_back_everything(site: None, tmp_path: Path, name: str) -> None:
    before = snapshot()
    path = tmp_path / name
    printed = run_backup(path)
    assert f"{len(before['cards'])} cards" in printed
    assert not path.with_name(name + ".partial").exists()

    wipe()
    assert not Card.everything.exists() and not User.objects.exists()
    printed = run_restore(path)

    assert f"{len(before['revisions'])} revisions" in printed
    after = snapshot()
    for section in before:
        assert after[section] == before[section], section
    # The fixture's history is there: several revisions, soft deletions, every set.
    assert CardRevision.objects.filter(card__name="Swamp Ogre").count() == 4
    assert Card.everything.get(name="Old Ogre").deleted_at is not None
    assert CardSet.everything.get(code="bob-hidden").deleted_at is not None
    assert CardSet.objects.filter(official=True).count() >= 5
    # Passwords still work (the hashes came back); tokens did not (users make new ones).
    alice = User.objects.get(username="alice")
    assert alice.check_password("alice-pw")
    assert not ApiToken.objects.exists()


def test_search_works_after_a_restore(site: None, tmp_path: Path) -> None:
    path = tmp_path / "site.json"
    run_backup(path)
    wipe()
    run_restore(path)

    cards, warnings = card_search(query="name:troll", viewer=None)
    assert not warnings
    assert "Net Troll" in {c.name for c in cards}
    words, _ = card_search(query="troll", viewer=None)  # the full-text index
    assert "Net Troll" in {c.name for c in words}
    tagged, _ = card_search(query="tag:undead set:alice-set", viewer=None)
    assert [c.name for c in tagged] == ["Swamp Ogre"]


def test_scopes_of_set_codes_come_back(site: None, tmp_path: Path) -> None:
    alice = User.objects.get(username="alice")
    alice.username = "alicia"  # renamed: her codes, and her scope, stay "alice"
    alice.save()
    path = tmp_path / "site.json"
    run_backup(path)
    wipe()
    run_restore(path)
    scopes = dict(CodeScope.objects.values_list("user__username", "scope"))
    assert scopes["alicia"] == "alice" and scopes["bob"] == "bob"
    assert set(scopes) == {"alicia", "bob", "stella", "gone"}
    assert CardSet.objects.get(code="alice-set").owner == User.objects.get(username="alicia")


def test_a_backup_from_before_scopes_has_its_codes_moved_into_them(
    site: None, tmp_path: Path
) -> None:
    path = tmp_path / "site.json"
    run_backup(path)
    data = json.loads(path.read_text())
    for user in data["users"]:
        del user["code_scope"]
    for row in (*data["sets"], *data["cards"]):  # bob's unlisted set had a free code then
        key = "code" if "code" in row else "set"
        row[key] = "trolls" if row[key] == "bob-set" else row[key]
    path.write_text(json.dumps(data))
    wipe()
    run_restore(path)
    moved = CardSet.objects.get(name="Bob's")
    assert moved.code == "bob-trolls" and moved.cards.count() == 1
    alice = User.objects.get(username="alice")
    assert CardSet.objects.get(code="alice-set").owner == alice  # in its scope: kept
    assert CardSet.objects.filter(code="munchkin-core", owner=None).exists()  # official: free
    assert CodeScope.objects.count() == User.objects.count()


def test_the_file_says_what_it_is(site: None, tmp_path: Path) -> None:
    path = tmp_path / "site.json"
    run_backup(path)
    data = json.loads(path.read_text())
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["counts"]["sets"] == CardSet.everything.count()
    assert data["counts"]["cards"] == Card.everything.count()
    # No token of any kind leaves the site.
    assert "tokens" not in data
    assert ApiToken.objects.get().digest not in path.read_text()


def test_restore_into_a_non_empty_database_is_refused(site: None, tmp_path: Path) -> None:
    path = tmp_path / "site.json"
    run_backup(path)
    before = snapshot()
    with pytest.raises(CommandError, match=r"not empty.*nothing was written"):
        run_restore(path)
    assert snapshot() == before


def test_a_single_user_makes_the_database_non_empty(site: None, tmp_path: Path) -> None:
    path = tmp_path / "site.json"
    run_backup(path)
    wipe()
    User.objects.create_user("early")
    with pytest.raises(CommandError, match="1 users"):
        run_restore(path)
    assert not CardSet.everything.exists()


def _bad_files(tmp_path: Path, good: Path) -> dict[str, tuple[Path, str]]:
    data = json.loads(good.read_text())
    files: dict[str, tuple[Path, str]] = {}

    def write(name: str, text: str, message: str) -> None:
        path = tmp_path / name
        path.write_text(text)
        files[name] = (path, message)

    text = good.read_text()
    write("cut.json", text[: len(text) // 2], "damaged or not a backup")
    write("other.json", json.dumps({**data, "format": "something-else"}), "not a munchkin")
    write("future.json", json.dumps({**data, "version": VERSION + 1}), "version 2 backup")
    write(
        "short.json",
        json.dumps({**data, "cards": data["cards"][:-1]}),
        "header counts .* cards",
    )
    broken_card = {**data["cards"][0]}
    del broken_card["document"]
    write(
        "record.json",
        json.dumps({**data, "cards": [broken_card, *data["cards"][1:]]}),
        "could not be restored",
    )
    gz = tmp_path / "cut.json.gz"
    gz.write_bytes(gzip.compress(text.encode())[:200])
    files["cut.json.gz"] = (gz, "damaged or not a backup")
    return files


def test_a_damaged_or_foreign_file_is_refused_and_writes_nothing(
    site: None, tmp_path: Path
) -> None:
    good = tmp_path / "site.json"
    run_backup(good)
    bad = _bad_files(tmp_path, good)
    wipe()
    for name, (path, message) in bad.items():
        with pytest.raises(CommandError, match=message) as raised:
            run_restore(path)
        assert "nothing was written" in str(raised.value), name
        assert not User.objects.exists(), name
        assert not CardSet.everything.exists(), name
        assert not Card.everything.exists(), name
    run_restore(good)  # the good file still restores after every refusal
    assert CardSet.everything.filter(code="alice-set").exists()


def test_a_backup_into_a_missing_folder_is_refused(site: None, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="is not a folder"):
        run_backup(tmp_path / "missing" / "site.json")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_neither_the_file_nor_a_partial_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(self: Path, target: Path) -> Path:
        raise OSError("disk full")

    monkeypatch.setattr(Path, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_backup({"format": FORMAT}, tmp_path / "site.json")
    assert list(tmp_path.iterdir()) == []
