from typing import Any

from django.apps import AppConfig
from django.db import connections
from django.db.models.signals import post_migrate


def _ensure_fulltext_index(using: str, **kwargs: Any) -> None:
    from catalog.search.fulltext import ensure_index

    db = connections[using]
    if "catalog_card" in db.introspection.table_names():
        ensure_index(db)


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Card catalog"

    def ready(self) -> None:
        # Schema upkeep, not business logic: see fulltext.ensure_index for why after migrations.
        post_migrate.connect(_ensure_fulltext_index, sender=self)
        # The catalog's own reaction to a saved card, on the path every app's reaction takes.
        from catalog.changes import catalog_change_receiver_add
        from catalog.validation import cards_validation_queue

        catalog_change_receiver_add("validation", cards_validation_queue)
