"""PostgreSQL: word search reads stored tsvector columns instead of recomputing them.

A phrase or prefix query over a GIN index is rechecked against each candidate row's words;
with expression indexes that meant running regexp_replace and to_tsvector again for every
candidate (about 20 us each, 60 ms for a common phrase at 100,000 cards). Stored generated
columns keep the words beside the row, so the recheck only reads them. Name and text are kept
apart, as SQLite's FTS5 table keeps its two columns: a search of both matches either, and a
phrase never runs from the end of a name into the text.

SQLite is unchanged: its FTS5 table keeps the words. (The covering index of both databases,
for a search's total, is the model's `card_cover_idx`, migration 0012.)
"""

from importlib import import_module

from django.db import migrations

FULLTEXT = import_module("catalog.migrations.0004_card_fulltext")
# Undone, the expression indexes of 0004 come back.
EXPRESSION_INDEXES = FULLTEXT.PG_CREATE
# Statements per database vendor, run by RunPython (0004's own runner).
_run = FULLTEXT._run

# The expressions of catalog.search.fulltext.PG_DOCUMENT, frozen here (a test compares them).
PG_COLUMNS = {
    "search_name": "to_tsvector('simple'::regconfig, regexp_replace(name, '[^[:alnum:]]+', ' ', 'g'))",
    "search_text": "to_tsvector('simple'::regconfig, regexp_replace(text, '[^[:alnum:]]+', ' ', 'g'))",
}
PG_CREATE = [
    *(
        f"ALTER TABLE catalog_card ADD COLUMN {column} tsvector "
        f"GENERATED ALWAYS AS ({vector}) STORED"
        for column, vector in PG_COLUMNS.items()
    ),
    *(
        f"CREATE INDEX card_{column}_idx ON catalog_card USING GIN ({column})"
        for column in PG_COLUMNS
    ),
    *(f"DROP INDEX IF EXISTS card_fts_{column}_idx" for column in ("name", "text", "both")),
]
PG_DROP = [
    *(f"DROP INDEX IF EXISTS card_{column}_idx" for column in PG_COLUMNS),
    *(f"ALTER TABLE catalog_card DROP COLUMN IF EXISTS {column}" for column in PG_COLUMNS),
    *EXPRESSION_INDEXES,
]


class Migration(migrations.Migration):
    dependencies = [("catalog", "0010_provenance_and_curators")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": PG_CREATE}),
            _run({"postgresql": PG_DROP}),
        )
    ]
