"""Saved cards checked in the background.

Checking a card runs its scenarios and meets it in seeded whole games with its set's deck:
tens to hundreds of milliseconds of engine time, more than the save itself. So a save made in
the editor or through the API answers at once, with the card's validation "unchecked" (the API
contract allows it) unless its document was checked before, and the task worker checks it soon
after. Its report is stored by document hash, as every report is; the card page's Validation
section and the API's `validation` show it from then on.

Nothing is lost on the way:

- The check is queued by `cards_validation_queue`, a receiver of the catalog's changes
  (catalog/changes.py), so it is asked for by every writer of a card alike (the editor, the
  API, an import, an accepted proposal, a revert), once the card's transaction commits: it
  never looks for a card that is not there yet, and a rolled-back save queues nothing. A load
  checks its cards itself in one pass (`make run` runs validate_cards after load_catalog).
- The task checks each card's current document when it runs: a card saved twice in quick
  succession is checked at its latest revision, never reported with an older verdict.
- A task that fails, or is lost with its process between the commit and the queue, stores
  nothing: the card stays "unchecked", never a wrong verdict, and `python manage.py
  validate_cards` checks every card without a report.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable

from django.tasks import task

from accounts.queues import interactive
from catalog.changes import CatalogChange, catalog_changed
from catalog.models import Card
from catalog.selectors import catalog_cards
from validator.services import cards_validate

logger = logging.getLogger(__name__)


def cards_validate_saved(*, card_ids: Iterable[int]) -> int:
    """Check the current document of each of these cards (those still live) with its whole
    set as the deck of its whole games, storing every new report; returns how many cards
    were looked at. Documents already checked by this engine version are not checked again."""
    by_set: dict[str, list[dict[str, object]]] = defaultdict(list)
    cards = Card.objects.filter(pk__in=list(card_ids), card_set__deleted_at__isnull=True)
    for code, document in cards.values_list("card_set__code", "document"):
        by_set[code].append(document)
    for code, documents in by_set.items():
        cards_validate(
            cards=[(code, document) for document in documents],
            deck=catalog_cards(set_codes=[code]),
        )
    if by_set:
        catalog_changed()  # the cards' validation, part of what the catalog shows, changed
    return sum(len(documents) for documents in by_set.values())


@task()
def validate_saved_cards(card_ids: list[int]) -> int:
    """The background task: check these saved cards (see `cards_validate_saved`)."""
    return cards_validate_saved(card_ids=card_ids)


def cards_validation_queue(change: CatalogChange) -> None:
    """The receiver of catalog changes: have the cards a change saved checked in the
    background, unless their writer checks them itself (a load)."""
    ids = list(change.cards_saved)
    if not ids or change.checked_after:
        return
    # On the interactive queue: never behind simulations and exports (accounts/queues.py).
    validate = interactive(validate_saved_cards, cards=len(ids))
    try:
        validate.enqueue(ids)
    except Exception:  # the card stays unchecked until validate_cards checks it
        logger.exception("queueing the validation of cards %s failed", ids)
