"""Word search over card names and rules text, backed by each database's full-text index.

SQLite uses an FTS5 table (`catalog_card_fts`, kept in step with `catalog_card` by triggers);
PostgreSQL uses GIN indexes over `to_tsvector('simple', ...)`. Both see the same words: runs of
letters and digits, lower-cased, so a query behaves alike on either database. A query's words
must appear in that order, next to each other; the last may be the start of a longer word
(`chick` finds "Chicken"). Values without a letter or digit fall back to a substring match.
"""

from __future__ import annotations

import re
from typing import Literal

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q
from django.db.models.expressions import RawSQL

Column = Literal["name", "text", "both"]

_WORD = re.compile(r"[^\W_]+")

# Every non-alphanumeric run becomes a space first, so that PostgreSQL's parser sees the same
# words as FTS5's unicode61 tokenizer (it would otherwise keep "butt-kicking" whole as well).
_PG_DOCUMENT = {
    "name": "regexp_replace(name, '[^[:alnum:]]+', ' ', 'g')",
    "text": "regexp_replace(text, '[^[:alnum:]]+', ' ', 'g')",
    "both": "regexp_replace(name || ' ' || text, '[^[:alnum:]]+', ' ', 'g')",
}


def pg_vector(column: Column) -> str:
    """The indexed expression; migrations and queries must spell it identically."""
    return f"to_tsvector('simple'::regconfig, {_PG_DOCUMENT[column]})"


def words(value: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(value)]


def text_match(value: str, *, column: Column) -> Q:
    """Cards whose name, rules text or either contains `value`'s words as a phrase."""
    found = words(value)
    if not found:
        return _substring(value, column)
    if connection.vendor == "sqlite":
        phrase = '"' + " ".join(found) + '"*'
        match = phrase if column == "both" else f"{column} : {phrase}"
        sql = "SELECT rowid FROM catalog_card_fts WHERE catalog_card_fts MATCH %s"
        return Q(pk__in=RawSQL(sql, (match,)))
    if connection.vendor == "postgresql":
        query = " <-> ".join(found) + ":*"
        sql = (
            f"SELECT id FROM catalog_card WHERE {pg_vector(column)} "
            "@@ to_tsquery('simple'::regconfig, %s)"
        )
        return Q(pk__in=RawSQL(sql, (query,)))
    return _substring(value, column)  # another database: a scan, but the same cards


def _substring(value: str, column: Column) -> Q:
    q = Q()
    for lookup in ("name", "text") if column == "both" else (column,):
        q |= Q(**{f"{lookup}__icontains": value})
    return q


_SQLITE_TABLE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS catalog_card_fts USING fts5("
    "name, text, content='catalog_card', content_rowid='id', "
    "tokenize='unicode61 remove_diacritics 2')"
)
_SQLITE_TRIGGERS = {
    "catalog_card_fts_insert": "AFTER INSERT ON catalog_card BEGIN "
    "INSERT INTO catalog_card_fts(rowid, name, text) VALUES (new.id, new.name, new.text); END",
    "catalog_card_fts_delete": "AFTER DELETE ON catalog_card BEGIN "
    "INSERT INTO catalog_card_fts(catalog_card_fts, rowid, name, text) "
    "VALUES ('delete', old.id, old.name, old.text); END",
    "catalog_card_fts_update": "AFTER UPDATE OF name, text ON catalog_card BEGIN "
    "INSERT INTO catalog_card_fts(catalog_card_fts, rowid, name, text) "
    "VALUES ('delete', old.id, old.name, old.text); "
    "INSERT INTO catalog_card_fts(rowid, name, text) VALUES (new.id, new.name, new.text); END",
}


def ensure_index(db: BaseDatabaseWrapper) -> bool:
    """Create whatever part of the full-text index is missing; True if anything was.

    Run after every migration: on SQLite, Django alters a column by rebuilding the table,
    which drops its triggers, and the FTS table would silently stop following the cards.
    """
    created = False
    with db.cursor() as cursor:
        if db.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM sqlite_master "
                "WHERE type = 'trigger' AND tbl_name = 'catalog_card'"
            )
            present = {row[0] for row in cursor.fetchall()}
            cursor.execute(_SQLITE_TABLE)
            for name, body in _SQLITE_TRIGGERS.items():
                if name not in present:
                    cursor.execute(f"CREATE TRIGGER {name} {body}")
                    created = True
            if created:  # rows written while a trigger was missing are not in the index
                cursor.execute("INSERT INTO catalog_card_fts(catalog_card_fts) VALUES ('rebuild')")
        elif db.vendor == "postgresql":
            for column in ("name", "text", "both"):
                cursor.execute("SELECT to_regclass(%s)", [f"card_fts_{column}_idx"])
                if cursor.fetchone()[0] is None:
                    cursor.execute(
                        f"CREATE INDEX card_fts_{column}_idx ON catalog_card "
                        f"USING GIN ({pg_vector(column)})"
                    )
                    created = True
    return created
