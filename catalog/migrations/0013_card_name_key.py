"""Cards gain `name_key`, the name as people type it (catalog.names), for name completion and
the API's fuzzy lookup; existing cards get theirs here."""

from typing import Any

from django.db import migrations, models

from catalog.names import name_key


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
        migrations.AddIndex(
            model_name="card",
            index=models.Index(
                condition=models.Q(("deleted_at__isnull", True)),
                fields=["name_key"],
                name="card_name_key_idx",
                opclasses=["text_pattern_ops"],
            ),
        ),
    ]
