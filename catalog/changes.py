"""Who hears that the catalog changed: an extension point that an app above fills.

The catalog's writes (cards written, deleted, restored, given art; sets changed; loads) call
`catalog_changed`; an app built on the catalog (the bulk data files) registers what to do then
when Django starts, so the catalog never imports the layers above it. The handler runs once the
transaction commits, so a rolled-back write is never heard of."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

CatalogChanged = Callable[[], None]

_handlers: dict[str, CatalogChanged] = {}


def catalog_changed_handler_add(name: str, handler: CatalogChanged) -> None:
    """Install a handler under a name (installing the same name again replaces it)."""
    _handlers[name] = handler


def catalog_changed_handler_remove(name: str) -> None:
    _handlers.pop(name, None)


def catalog_changed() -> None:
    """Tell the handlers that cards or sets changed, after the current transaction commits."""
    for handler in list(_handlers.values()):
        transaction.on_commit(handler)
