"""Retention: games expire and are deleted, so the table keeps no game forever.

A game no one has moved in (no move, undo or restart) for PLAY_ANONYMOUS_GAME_DAYS days
(dealt without an account) or PLAY_GAME_DAYS days (dealt by a logged-in user) has expired: its
links answer 410 at once, and `games_delete_expired` deletes it with its seats, then the packs
the table built for deals from sets that no game, simulation or export uses any more. The task
worker runs it after a deal, at most once every PLAY_PRUNE_INTERVAL seconds (`games_prune_soon`),
and `python manage.py prune_games` does the same from a schedule."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from packs.models import Pack
from play.models import Game
from play.selectors import forget_tables

logger = logging.getLogger(__name__)

# Set in the default cache for PLAY_PRUNE_INTERVAL seconds when a prune is queued.
PRUNE_FLAG = "play:prune-queued"
BATCH = 500  # games deleted in one transaction


@dataclass(frozen=True)
class Pruned:
    """What a prune deleted: games (their seats with them) and packs no game uses."""

    games: int
    packs: int


def _expired(now: datetime) -> Q:
    anonymous = now - timedelta(days=settings.PLAY_ANONYMOUS_GAME_DAYS)
    accounts = now - timedelta(days=settings.PLAY_GAME_DAYS)
    return Q(created_by__isnull=True, updated_at__lte=anonymous) | Q(
        created_by__isnull=False, updated_at__lte=accounts
    )


def games_delete_expired(*, now: datetime | None = None) -> Pruned:
    """Delete the expired games (see the module) in batches, then the packs no one owns that
    the table built for them and nothing uses now (older than PLAY_ANONYMOUS_GAME_DAYS, so a
    pack being dealt from is not taken). Returns how many of each were deleted."""
    now = now or timezone.now()
    games = 0
    while True:
        ids = list(Game.objects.filter(_expired(now)).values_list("pk", flat=True)[:BATCH])
        if not ids:
            break
        with transaction.atomic():
            # Checked again as they are deleted: a game moved in meanwhile is kept.
            _, counts = Game.objects.filter(_expired(now), pk__in=ids).delete()
        games += counts.get(Game._meta.label, 0)
        forget_tables(game_ids=ids)
    unused = Pack.objects.filter(
        owner=None,
        created_at__lte=now - timedelta(days=settings.PLAY_ANONYMOUS_GAME_DAYS),
        games__isnull=True,
        simulations__isnull=True,
        tts_exports__isnull=True,
    )
    _, counts = Pack.objects.filter(pk__in=list(unused.values_list("pk", flat=True))).delete()
    return Pruned(games=games, packs=counts.get(Pack._meta.label, 0))


def games_prune_soon() -> None:
    """After a deal: queue `prune_games` unless one was queued in the last
    PLAY_PRUNE_INTERVAL seconds (a flag in the default cache, so per process with the
    in-memory cache). A failure to queue is logged; the next deal tries again."""
    if not cache.add(PRUNE_FLAG, True, timeout=settings.PLAY_PRUNE_INTERVAL):
        return
    try:
        prune_games.enqueue()
    except Exception:
        cache.delete(PRUNE_FLAG)
        logger.exception("queueing the prune of expired games failed")


@task()
def prune_games() -> int:
    """The background task: `games_delete_expired`. Returns how many games it deleted."""
    pruned = games_delete_expired()
    if pruned.games or pruned.packs:
        logger.info("deleted %d expired games and %d unused packs", pruned.games, pruned.packs)
    return pruned.games
