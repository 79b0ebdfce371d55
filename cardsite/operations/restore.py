"""Put a `backup` file back into an empty database in one transaction (`manage.py restore`).

The file's format and version are checked and every section read before anything is written;
any error writes nothing. Users come back with the same usernames, password hashes and flags,
sets and cards with the same codes (a custom set outside its owner's scope of codes, from a
backup older than scopes, is moved into it), documents, revision numbers and timestamps
(database ids are new), and the search rows (tags and facets) are rebuilt by the catalog's own
indexing.
There is no `--force`: a database holding users, sets or cards is refused as it is.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from accounts.models import CodeScope
from accounts.services import code_scope
from authoring.models import CardScenario
from cardsite.operations import OperationError
from cardsite.operations.backup import CARD_FIELDS, FORMAT, SECTIONS, VERSION
from catalog.models import Card, CardRevision, CardSet
from catalog.services import card_index_refresh, set_codes_scoped
from packs.models import Pack


class BackupError(Exception):
    """The file is not a backup this site can restore."""


def read_backup(path: Path) -> dict[str, Any]:
    """The backup's data, with its header checked against the format, version and counts."""
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as gz:
                text = gz.read()
        else:
            text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except FileNotFoundError as exc:
        raise BackupError(f"{path} does not exist") from exc
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as exc:
        raise BackupError(f"{path} is damaged or not a backup: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{path} is not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise BackupError(
            f"{path} is a version {data.get('version')!r} backup; this site restores "
            f"version {VERSION}"
        )
    counts = data.get("counts")
    if not isinstance(counts, dict):
        raise BackupError(f"{path} is damaged: its header has no counts")
    for name in SECTIONS:
        rows = data.get(name)
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise BackupError(f"{path} is damaged: {name!r} is not a list of records")
        if counts.get(name) != len(rows):
            raise BackupError(
                f"{path} is damaged: its header counts {counts.get(name)!r} {name}, "
                f"the file holds {len(rows)}"
            )
    return data


def database_contents() -> dict[str, int]:
    """What the database already holds of what a restore writes (all zero: empty)."""
    return {
        "users": User.objects.count(),
        "sets": CardSet.everything.count(),
        "cards": Card.everything.count(),
        "revisions": CardRevision.objects.count(),
        "scenarios": CardScenario.objects.count(),
        "packs": Pack.objects.count(),
    }


def _time(value: Any) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a timestamp")
    return datetime.fromisoformat(value)


def _required_time(value: Any) -> datetime:
    parsed = _time(value)
    if parsed is None:
        raise ValueError("a required timestamp is missing")
    return parsed


class _Users:
    """Usernames of the backup to the restored users."""

    def __init__(self, users: Mapping[str, User]) -> None:
        self.users = users

    def get(self, username: Any) -> User | None:
        if username is None:
            return None
        if username not in self.users:
            raise ValueError(f"the user {username!r} is named but not in the backup")
        return self.users[username]

    def __len__(self) -> int:
        return len(self.users)


def restore_data(data: Mapping[str, Any]) -> dict[str, int]:
    """Write a checked backup into the (empty) database in one transaction; the counts."""
    with transaction.atomic():
        by_name = _restore_users(data["users"])
        set_by_code = _restore_sets(data["sets"], by_name)
        card_by_id = _restore_cards(data["cards"], set_by_code)
        revisions = _restore_revisions(data["revisions"], card_by_id, by_name)
        scenarios = _restore_scenarios(data["scenarios"], card_by_id, by_name)
        packs = _restore_packs(data["packs"], by_name)
        set_codes_scoped()  # a backup from before scopes holds codes outside them
    return {
        "users": len(by_name),
        "sets": len(set_by_code),
        "cards": len(card_by_id),
        "revisions": revisions,
        "scenarios": scenarios,
        "packs": packs,
    }


def _restore_users(rows: list[dict[str, Any]]) -> _Users:
    users = User.objects.bulk_create(
        [
            User(
                username=u["username"],
                password=u["password"],
                email=u.get("email", ""),
                first_name=u.get("first_name", ""),
                last_name=u.get("last_name", ""),
                is_staff=u["is_staff"],
                is_superuser=u.get("is_superuser", False),
                is_active=u["is_active"],
                date_joined=_required_time(u["date_joined"]),
                last_login=_time(u.get("last_login")),
            )
            for u in rows
        ]
    )
    by_name = _Users({u.username: u for u in users})
    # Each user's scope of set codes as the backup has it (older backups have none: one
    # is given as to a new user); the sets' codes are put in their scopes further down.
    CodeScope.objects.bulk_create(
        CodeScope(user=user, scope=u["code_scope"])
        for user, u in zip(users, rows, strict=True)
        if u.get("code_scope")
    )
    for user in users:
        code_scope(user=user)
    return by_name


# bulk_create stamps auto_now(_add) fields with the present: the backup's times are put back
# afterwards with bulk_update, which writes the values as they are.


def _restore_sets(rows: list[dict[str, Any]], by_name: _Users) -> dict[str, CardSet]:
    sets = CardSet.everything.bulk_create(
        [
            CardSet(
                code=s["code"],
                name=s["name"],
                cards_in_box=s["cards_in_box"],
                official=s["official"],
                year=s["year"],
                description=s["description"],
                owner=by_name.get(s["owner"]),
                visibility=s["visibility"],
                deleted_at=_time(s["deleted_at"]),
            )
            for s in rows
        ]
    )
    for card_set, s in zip(sets, rows, strict=True):
        card_set.created_at = _required_time(s["created_at"])
        card_set.updated_at = _required_time(s["updated_at"])
    CardSet.everything.bulk_update(sets, ["created_at", "updated_at"])
    set_by_code = {s.code: s for s in sets}
    return set_by_code


def _restore_cards(rows: list[dict[str, Any]], set_by_code: dict[str, CardSet]) -> dict[Any, Card]:
    cards = Card.everything.bulk_create(
        [
            Card(
                card_set=set_by_code[c["set"]],
                **{name: c[name] for name in CARD_FIELDS},
                art=c["art"],
                deleted_at=_time(c["deleted_at"]),
            )
            for c in rows
        ]
    )
    card_by_id: dict[Any, Card] = {}
    for card, c in zip(cards, rows, strict=True):
        card.created_at = _required_time(c["created_at"])
        card.updated_at = _required_time(c["updated_at"])
        card_by_id[c["id"]] = card
        card_index_refresh(
            card_row=card, card=card.typed
        )  # tags and facets, as every save makes them
    Card.everything.bulk_update(cards, ["created_at", "updated_at"])
    return card_by_id


def _restore_revisions(
    rows: list[dict[str, Any]], card_by_id: dict[Any, Card], by_name: _Users
) -> int:
    revisions = CardRevision.objects.bulk_create(
        [
            CardRevision(
                card=card_by_id[r["card"]],
                number=r["number"],
                document=r["document"],
                document_hash=r["document_hash"],
                changed_by=by_name.get(r["changed_by"]),
                source=r["source"],
            )
            for r in rows
        ]
    )
    for revision, r in zip(revisions, rows, strict=True):
        revision.changed_at = _required_time(r["changed_at"])
    CardRevision.objects.bulk_update(revisions, ["changed_at"])
    return len(revisions)


def _restore_scenarios(
    rows: list[dict[str, Any]], card_by_id: dict[Any, Card], by_name: _Users
) -> int:
    scenarios = CardScenario.objects.bulk_create(
        [
            CardScenario(
                card=card_by_id[s["card"]],
                name=s["name"],
                text=s["text"],
                created_by=by_name.get(s["created_by"]),
                last_status=s["last_status"],
                last_messages=s["last_messages"],
                last_values=s["last_values"],
                last_run_at=_time(s["last_run_at"]),
                last_card_revision=s["last_card_revision"],
            )
            for s in rows
        ]
    )
    for scenario, s in zip(scenarios, rows, strict=True):
        scenario.created_at = _required_time(s["created_at"])
        scenario.updated_at = _required_time(s["updated_at"])
    CardScenario.objects.bulk_update(scenarios, ["created_at", "updated_at"])
    return len(scenarios)


def _restore_packs(rows: list[dict[str, Any]], by_name: _Users) -> int:
    packs = Pack.objects.bulk_create(
        [
            Pack(
                owner=by_name.get(p["owner"]),
                name=p["name"],
                selection=p["selection"],
                document=p["document"],
                sha256=p["sha256"],
                card_count=p["card_count"],
                door_copies=p["door_copies"],
                treasure_copies=p["treasure_copies"],
            )
            for p in rows
        ]
    )
    for pack, p in zip(packs, rows, strict=True):
        pack.created_at = _required_time(p["created_at"])
    Pack.objects.bulk_update(packs, ["created_at"])
    return len(packs)


def restore(*, path: Path) -> dict[str, int]:
    """Restore the backup file at `path` into the empty database, all or nothing; the number of
    records restored per section. A bad file, or a database that already holds users, sets or
    cards, is refused before anything is written."""
    try:
        data = read_backup(path)
    except BackupError as exc:
        raise OperationError(f"{exc}; nothing was written") from exc
    present = {name: n for name, n in database_contents().items() if n}
    if present:
        held = ", ".join(f"{n} {name}" for name, n in present.items())
        raise OperationError(
            f"the database is not empty ({held}): restore only into a fresh database "
            "(run `migrate` on an empty one first); nothing was written"
        )
    try:
        return restore_data(data)
    except Exception as exc:  # a damaged record: the transaction has been rolled back
        raise OperationError(
            f"{path} could not be restored ({type(exc).__name__}: {exc}); nothing was written"
        ) from exc
