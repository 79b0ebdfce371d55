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
