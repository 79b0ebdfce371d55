"""Writes to the catalog, by domain: set files loaded (`loading`), sets (`sets`) and cards
(`cards`). Every write goes through a function here; this module names them all, so callers
write `from catalog.services import card_create` whatever room it lives in."""

from catalog.services.cards import (
    MAX_CARDS_PER_SET,
    StaleRevisionError,
    card_art_set,
    card_columns,
    card_create,
    card_delete,
    card_index_refresh,
    card_restore,
    card_revert,
    card_slug,
    card_update,
    card_validate,
    card_write,
)
from catalog.services.loading import (
    CatalogLoadError,
    CatalogLoadReport,
    SetLoadReport,
    catalog_load,
    catalog_parse,
    default_fixture_paths,
)
from catalog.services.sets import (
    MAX_SETS_PER_USER,
    Actor,
    SetError,
    owned_code,
    set_codes_scoped,
    set_create,
    set_delete,
    set_restore,
    set_update,
)

__all__ = [
    "MAX_CARDS_PER_SET",
    "MAX_SETS_PER_USER",
    "Actor",
    "CatalogLoadError",
    "CatalogLoadReport",
    "SetError",
    "SetLoadReport",
    "StaleRevisionError",
    "card_art_set",
    "card_columns",
    "card_create",
    "card_delete",
    "card_index_refresh",
    "card_restore",
    "card_revert",
    "card_slug",
    "card_update",
    "card_validate",
    "card_write",
    "catalog_load",
    "catalog_parse",
    "default_fixture_paths",
    "owned_code",
    "set_codes_scoped",
    "set_create",
    "set_delete",
    "set_restore",
    "set_update",
]
