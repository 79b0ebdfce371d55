"""Cards gain `name_key`, the name as people type it (catalog.names), for name completion and
the API's fuzzy lookup; existing cards get theirs here.

Its index differs by database, so it is written here rather than in the model: SQLite compares
keys byte by byte, so a prefix is a range of a plain index and its order is the index's. On
PostgreSQL the default collation orders otherwise and cannot serve LIKE 'prefix%' from a plain
index; the index is on the key in the "C" collation (byte order), which serves both the prefix
and the order of the first names, so completing a one-letter prefix stops after 20 names
(catalog.selectors.names reads the key in that collation)."""

from importlib import import_module
from typing import Any

from django.db import migrations, models

from catalog.names import name_key

# Statements per database vendor, run by RunPython (0004's own runner).
_run = import_module("catalog.migrations.0004_card_fulltext")._run

CREATE = {
    "sqlite": [
        "CREATE INDEX card_name_key_idx ON catalog_card (name_key) WHERE deleted_at IS NULL"
    ],
    "postgresql": [
        'CREATE INDEX card_name_key_idx ON catalog_card ((name_key COLLATE "C")) '
        "WHERE deleted_at IS NULL"
    ],
}
DROP = {vendor: ["DROP INDEX IF EXISTS card_name_key_idx"] for vendor in CREATE}


def fill_name_keys(apps: Any, schema_editor: Any) -> None:
    card_model = apps.get_model("catalog", "Card")
    cards = list(card_model._base_manager.only("pk", "name"))
    for card in cards:
        card.name_key = name_key(card.name)
    card_model._base_manager.bulk_update(cards, ["name_key"], batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0012_card_cover_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="card",
            name="name_key",
            field=models.CharField(blank=True, default="", max_length=80),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
        migrations.RunPython(_run(CREATE), _run(DROP)),
    ]
