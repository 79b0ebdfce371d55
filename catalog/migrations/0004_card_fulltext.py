"""Full-text indexes for word search (see catalog/search/fulltext.py)."""

from typing import Any

from django.db import migrations

SQLITE_CREATE = [
    "CREATE VIRTUAL TABLE catalog_card_fts USING fts5("
    "name, text, content='catalog_card', content_rowid='id', "
    "tokenize='unicode61 remove_diacritics 2')",
    "CREATE TRIGGER catalog_card_fts_insert AFTER INSERT ON catalog_card BEGIN "
    "INSERT INTO catalog_card_fts(rowid, name, text) VALUES (new.id, new.name, new.text); END",
    "CREATE TRIGGER catalog_card_fts_delete AFTER DELETE ON catalog_card BEGIN "
    "INSERT INTO catalog_card_fts(catalog_card_fts, rowid, name, text) "
    "VALUES ('delete', old.id, old.name, old.text); END",
    "CREATE TRIGGER catalog_card_fts_update AFTER UPDATE OF name, text ON catalog_card BEGIN "
    "INSERT INTO catalog_card_fts(catalog_card_fts, rowid, name, text) "
    "VALUES ('delete', old.id, old.name, old.text); "
    "INSERT INTO catalog_card_fts(rowid, name, text) VALUES (new.id, new.name, new.text); END",
    "INSERT INTO catalog_card_fts(catalog_card_fts) VALUES ('rebuild')",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS catalog_card_fts_update",
    "DROP TRIGGER IF EXISTS catalog_card_fts_delete",
    "DROP TRIGGER IF EXISTS catalog_card_fts_insert",
    "DROP TABLE IF EXISTS catalog_card_fts",
]
# The expressions of catalog.search.fulltext.pg_vector, frozen here (a test compares them).
PG_VECTORS = {
    "name": "to_tsvector('simple'::regconfig, regexp_replace(name, '[^[:alnum:]]+', ' ', 'g'))",
    "text": "to_tsvector('simple'::regconfig, regexp_replace(text, '[^[:alnum:]]+', ' ', 'g'))",
    "both": "to_tsvector('simple'::regconfig, "
    "regexp_replace(name || ' ' || text, '[^[:alnum:]]+', ' ', 'g'))",
}
PG_CREATE = [
    f"CREATE INDEX card_fts_{column}_idx ON catalog_card USING GIN ({vector})"
    for column, vector in PG_VECTORS.items()
]
PG_DROP = [f"DROP INDEX IF EXISTS card_fts_{column}_idx" for column in ("name", "text", "both")]


def _run(statements: dict[str, list[str]]) -> Any:
    def run(apps: Any, schema_editor: Any) -> None:
        for statement in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("catalog", "0003_cardfacet")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE_CREATE, "postgresql": PG_CREATE}),
            _run({"sqlite": SQLITE_DROP, "postgresql": PG_DROP}),
        )
    ]
