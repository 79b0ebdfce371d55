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

Verdicts of other code. A report is kept under the digest of the code that made it
(validator.checks.check_version), so after a deploy that changes the engine or its checks,
every card's report is of other code at once. No page shows such a verdict as current: the
card page says the card is being checked again (with the old verdict as history), the API's
`validation` is "unchecked" (the contract's word for no current verdict) and the set page
counts it as being re-checked, outside its coverage table. Who checks them again, and at what
cost:

- `manage.py validate_cards` (`make run` runs it before serving) checks them all in one pass:
  a second or two of engine time for the whole catalog (338 cards: 1.3 s), set by set with
  each set's deck for the whole games.
- `make serve` and other deployments may not run it, so the first page or API read that shows
  a card with a verdict of other code (`checks_shown`) queues one such pass on the bulk queue
  (`validate_stale_cards`): every card without a current report, not just the ones on the
  page. One per code digest, not one per card or per page: a flag in the default cache keyed
  by the digest is taken with `cache.add`, so the hundreds of pages read while every card is
  stale queue nothing more. The flag outlives the pass (RECHECK_FLAG_SECONDS) and lapses after
  it, so a pass lost with its process (the thread backend on a restart) is queued again by a
  later read. With a per-process cache (the default, CACHE=memory), each web process may
  queue one pass; a second pass finds the cards already checked and reuses their reports.
- Pages never check a card in their request (except on the `immediate` task backend, which
  runs every task inline by design).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable

from django.core.cache import cache
from django.tasks import task

from accounts.queues import interactive
from catalog.changes import CatalogChange, catalog_changed
from catalog.models import Card
from catalog.selectors import catalog_cards
from validator.checks import code_hash
from validator.models import CardCheck
from validator.selectors import checked_document_hashes, checks_for, stale_checks_for
from validator.services import cards_validate

logger = logging.getLogger(__name__)

# Taken (cache.add) when a re-check of the cards without a current report is queued: one per
# digest of the code (see the module's docstring).
RECHECK_FLAG = "validation:recheck-queued:{code}"
# How long the flag is held: far longer than a pass takes (seconds), short enough that a pass
# lost with its process is queued again the same hour.
RECHECK_FLAG_SECONDS = 3600


def cards_validate_saved(*, card_ids: Iterable[int]) -> int:
    """Check the current document of each of these cards (those still live) with its whole
    set as the deck of its whole games, storing every new report; returns how many cards
    were looked at. Documents already checked by this code are not checked again."""
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


def cards_validate_stale() -> int:
    """Check every live card without a report by the current code (its verdict was made by
    other code, or it was never checked), set by set; returns how many cards were looked at."""
    ids = list(
        Card.objects.filter(card_set__deleted_at__isnull=True)
        .exclude(document_hash__in=checked_document_hashes())
        .values_list("pk", flat=True)
    )
    return cards_validate_saved(card_ids=ids) if ids else 0


@task()
def validate_stale_cards() -> int:
    """The background task: check every card without a current report (bulk work)."""
    return cards_validate_stale()


def stale_recheck_queue() -> bool:
    """Queue `validate_stale_cards` on the bulk queue unless it was queued for this code
    already (within RECHECK_FLAG_SECONDS); whether it was queued now."""
    flag = RECHECK_FLAG.format(code=code_hash())
    if not cache.add(flag, True, timeout=RECHECK_FLAG_SECONDS):
        return False
    try:
        validate_stale_cards.enqueue()
    except Exception:  # a later read queues it again, or validate_cards checks the cards
        cache.delete(flag)
        logger.exception("queueing the re-check of cards checked by other code failed")
        return False
    return True


def checks_shown(*, document_hashes: Iterable[str]) -> dict[str, CardCheck]:
    """The verdicts shown for these documents: their current reports, by hash (a document
    without one is "unchecked"). When any of them has a report by other code only, the one
    re-check of every such card is queued (`stale_recheck_queue`)."""
    hashes = set(document_hashes)
    checks = checks_for(document_hashes=hashes)
    missing = hashes - checks.keys()
    if missing and stale_checks_for(document_hashes=missing):
        stale_recheck_queue()
    return checks
