"""The one path by which the site hears that the catalog changed, a saved card above all.

Every write to the catalog (a card saved by the editor, the API, an import, a load, an
accepted proposal, a revert, an imported pack; art given; a card deleted or restored; a set
changed) ends in `catalog_changed`, from inside its transaction, with a `CatalogChange` saying
which cards it saved. What follows a change is not the catalog's business but that of the
apps above it, which add a receiver when Django starts (their AppConfig.ready):

- the catalog's own validation (catalog/validation.py) checks the saved cards' documents;
- prints draws their faces again;
- authoring runs each saved card's own scenarios;
- bulk makes the bulk data files again.

So the catalog never imports the layers above it, and a writer cannot forget a reaction: it
has one call to make, and card_write and cards_create (catalog/services/cards.py) make it
for every card write. Receivers run once the transaction commits, in the order they were
added, each on its own: a rolled-back write is never heard of, and a receiver that fails is
logged without keeping the others from running.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import transaction

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CatalogChange:
    """What one write changed. With no cards named, something else changed (a card deleted or
    restored, a set's details): only what is made from the whole catalog is stale."""

    # Cards whose document was written: their verdict, their own scenarios' results and their
    # faces are stale.
    cards_saved: tuple[int, ...] = ()
    # Cards given new art: their faces are stale.
    art_changed: tuple[int, ...] = ()
    # The writer draws the faces and checks the cards itself, in one pass once it is done (a
    # load: load_catalog, draw_faces, validate_cards), so none is queued card by card.
    checked_after: bool = False

    @classmethod
    def saved(cls, card_ids: Iterable[int], *, checked_after: bool = False) -> CatalogChange:
        """The change of a write that saved these cards' documents."""
        return cls(cards_saved=tuple(sorted(set(card_ids))), checked_after=checked_after)

    @property
    def faces_stale(self) -> tuple[int, ...]:
        """The cards whose faces must be drawn again, unless the writer draws them itself."""
        return tuple(sorted({*self.cards_saved, *self.art_changed}))


Receiver = Callable[[CatalogChange], None]

_receivers: dict[str, Receiver] = {}


def catalog_change_receiver_add(name: str, receiver: Receiver) -> None:
    """Install a receiver under a name (installing the same name again replaces it)."""
    _receivers[name] = receiver


def catalog_change_receivers() -> list[str]:
    """The names of the receivers installed, in the order they run."""
    return list(_receivers)


def catalog_changed(change: CatalogChange | None = None) -> None:
    """Tell every receiver of `change` (by default: something changed, no card saved), once
    the current transaction commits (at once outside a transaction)."""
    told = change if change is not None else CatalogChange()
    transaction.on_commit(lambda: _deliver(told))


def _deliver(change: CatalogChange) -> None:
    for name, receiver in list(_receivers.items()):
        try:
            receiver(change)
        except Exception:  # the write is committed; the others still hear of it
            logger.exception("the %r receiver of a catalog change failed", name)
