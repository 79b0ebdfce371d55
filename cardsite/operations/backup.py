"""The whole site's own data in one JSON file, for `restore` (`manage.py backup --output FILE`).

The file holds the users (with their password hashes as stored, and the scope their set codes
start with), every set (official and custom, deleted ones too), every card with its revisions,
the card scenarios and the packs.
It does not hold API tokens (users make new ones), sessions, simulations, proxy jobs, the
validation cache (rebuilt on demand) or the art files themselves (only their names: back up
the MEDIA_ROOT folder beside this file). A name ending in `.gz` is written gzip-compressed.
"""

from __future__ import annotations

import gzip
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.models import CodeScope
from authoring.models import CardScenario
from cardsite.operations import OperationError
from catalog.models import Card, CardRevision, CardSet
from packs.models import Pack

FORMAT = "munchkin-cardsite-backup"
VERSION = 1
# The lists of a backup, in the order they are restored; the header counts each one.
SECTIONS = ("users", "sets", "cards", "revisions", "scenarios", "packs")
# A card's columns that are written and read back as they are (the rest need a conversion:
# its set by code, art by file name, times as text); `restore` reads the same list.
CARD_FIELDS = (
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
)


def stamp(value: datetime | None) -> str | None:
    """A timestamp as ISO 8601 text (None stays None)."""
    return value.isoformat() if value is not None else None


def _username(user: User | None) -> str | None:
    return user.username if user is not None else None


def backup_data() -> dict[str, Any]:
    """Everything a backup holds, read in one transaction, as JSON-ready values."""
    with transaction.atomic():
        body = {
            "users": _users(),
            "sets": _sets(),
            "cards": _cards(),
            "revisions": _revisions(),
            "scenarios": _scenarios(),
            "packs": _packs(),
        }
    return {
        "format": FORMAT,
        "version": VERSION,
        "created_at": stamp(timezone.now()),
        "counts": {name: len(body[name]) for name in SECTIONS},
        **body,
    }


def _users() -> list[dict[str, Any]]:
    """The users, each with its password hash and scope of set codes."""
    scopes = dict(CodeScope.objects.values_list("user_id", "scope"))
    return [
        {
            "id": u.pk,
            "username": u.username,
            "password": u.password,  # the hash exactly as Django stored it
            "email": u.email,
            "first_name": u.first_name,
            "last_name": u.last_name,
            "is_staff": u.is_staff,
            "is_superuser": u.is_superuser,
            "is_active": u.is_active,
            "date_joined": stamp(u.date_joined),
            "last_login": stamp(u.last_login),
            "code_scope": scopes.get(u.pk),  # what their set codes start with
        }
        for u in User.objects.order_by("pk")
    ]


def _sets() -> list[dict[str, Any]]:
    """Every set, deleted ones included."""
    return [
        {
            "code": s.code,
            "name": s.name,
            "cards_in_box": s.cards_in_box,
            "official": s.official,
            "year": s.year,
            "description": s.description,
            "owner": _username(s.owner),
            "visibility": s.visibility,
            "deleted_at": stamp(s.deleted_at),
            "created_at": stamp(s.created_at),
            "updated_at": stamp(s.updated_at),
        }
        for s in CardSet.everything.select_related("owner").order_by("pk")
    ]


def _cards() -> list[dict[str, Any]]:
    """Every card, deleted ones included, by id (revisions and scenarios name it)."""
    return [
        {
            "id": c.pk,  # links revisions and scenarios; a restore gives new ids
            "set": c.card_set.code,
            **{name: getattr(c, name) for name in CARD_FIELDS},
            "art": c.art.name or "",  # the file's name on the media storage only
            "deleted_at": stamp(c.deleted_at),
            "created_at": stamp(c.created_at),
            "updated_at": stamp(c.updated_at),
        }
        for c in Card.everything.select_related("card_set").order_by("pk")
    ]


def _revisions() -> list[dict[str, Any]]:
    """Every revision of every card, in order."""
    return [
        {
            "card": r.card_id,
            "number": r.number,
            "document": r.document,
            "document_hash": r.document_hash,
            "changed_by": _username(r.changed_by),
            "changed_at": stamp(r.changed_at),
            "source": r.source,
        }
        for r in CardRevision.objects.select_related("changed_by").order_by("card_id", "number")
    ]


def _scenarios() -> list[dict[str, Any]]:
    """Every card's own scenarios, with their last results."""
    return [
        {
            "card": s.card_id,
            "name": s.name,
            "text": s.text,
            "created_by": _username(s.created_by),
            "created_at": stamp(s.created_at),
            "updated_at": stamp(s.updated_at),
            "last_status": s.last_status,
            "last_messages": s.last_messages,
            "last_values": s.last_values,
            "last_run_at": stamp(s.last_run_at),
            "last_card_revision": s.last_card_revision,
        }
        for s in CardScenario.objects.select_related("created_by").order_by("pk")
    ]


def _packs() -> list[dict[str, Any]]:
    """Every pack built."""
    return [
        {
            "owner": _username(p.owner),
            "name": p.name,
            "selection": p.selection,
            "document": p.document,
            "sha256": p.sha256,
            "card_count": p.card_count,
            "door_copies": p.door_copies,
            "treasure_copies": p.treasure_copies,
            "created_at": stamp(p.created_at),
        }
        for p in Pack.objects.select_related("owner").order_by("pk")
    ]


def write_backup(data: dict[str, Any], path: Path) -> None:
    """Write to `<path>.partial` and rename it into place, so a half-written file never
    carries the real name; gzip when the name ends in `.gz`."""
    partial = path.with_name(path.name + ".partial")
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    try:
        if path.name.endswith(".gz"):
            with gzip.open(partial, "wt", encoding="utf-8") as gz:
                gz.write(text)
        else:
            partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def backup(*, path: Path) -> dict[str, int]:
    """Write the whole site's own data to `path` (gzip when its name ends in `.gz`) for
    `restore`; the number of records written per section. A missing folder is refused."""
    if not path.parent.is_dir():
        raise OperationError(f"{path.parent} is not a folder")
    data = backup_data()
    write_backup(data, path)
    counts: dict[str, int] = data["counts"]
    return counts
