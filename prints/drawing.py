"""Faces drawn before anyone asks.

A card saved in the editor, the API or a contribution has its face queued (`faces_queue`, a
receiver of the catalog's changes: catalog/changes.py) and drawn by the task worker into the
"faces" cache that every page reads. A load draws the faces of the sets it loaded in one pass
(`faces_draw`, also `python manage.py draw_faces`). A page that asks for a face not drawn yet
still gets it, drawn in the request: the worker had not come to it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.tasks import task

from accounts.queues import interactive
from catalog.changes import CatalogChange
from catalog.models import Card
from prints.selectors import card_face, face_cache_key

logger = logging.getLogger(__name__)

# Cards a queued task draws at most: a bigger change is split, so one task never holds the
# worker for long and a lost one loses little.
BATCH = 200


def faces_missing(cards: Sequence[Card]) -> list[Card]:
    """The cards whose current face is not in the cache."""
    faces = caches["faces"]
    return [card for card in cards if not faces.has_key(face_cache_key(card))]


def faces_draw(
    *,
    cards: Sequence[Card],
    workers: int | None = None,
    on_face: Callable[[Card], None] | None = None,
) -> int:
    """Draw into the cache every face of `cards` not there yet; returns how many were drawn.
    Threads share the work (`workers`, default: the cores up to 4): encoding a PNG, most of a
    face's time, runs outside the GIL. `on_face` is called after each face, for progress."""
    missing = faces_missing(cards)
    if not missing:
        return 0
    workers = workers or max(1, min(4, os.cpu_count() or 1))

    def draw(card: Card) -> Card:
        try:
            card_face(card=card)
        finally:
            connections.close_all()  # this thread's own, should anything have opened one
        return card

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="faces") as pool:
        for card in pool.map(draw, missing):
            if on_face is not None:
                on_face(card)
    return len(missing)


def faces_queue(change: CatalogChange) -> None:
    """The receiver of catalog changes: queue the drawing of the faces a change made stale,
    unless its writer draws them itself (a load)."""
    card_ids = list(change.faces_stale)
    if not settings.FACES_AHEAD or change.checked_after or not card_ids:
        return
    # The interactive queue when the cards are few: a page may ask for the face soon
    # (accounts/queues.py).
    faces = interactive(draw_faces, cards=len(card_ids))
    for first in range(0, len(card_ids), BATCH):
        try:
            faces.enqueue(card_ids[first : first + BATCH])
        except Exception:  # a face not drawn ahead is drawn when first asked for
            logger.exception("queueing the faces of %d cards failed", len(card_ids))


@task()
def draw_faces(card_ids: list[int]) -> int:
    """The background task: draw the faces of these cards (those still live) not drawn yet."""
    cards = list(Card.objects.select_related("card_set").filter(pk__in=card_ids))
    return faces_draw(cards=cards, workers=1)
