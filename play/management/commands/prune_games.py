"""Delete the expired games: `python manage.py prune_games`. The task worker does the same
after a deal (at most once every PLAY_PRUNE_INTERVAL seconds); run this from a schedule (cron,
a systemd timer) so that a site where no one deals a game for a while keeps none past its
time either."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from play.retention import games_delete_expired


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'s' if count != 1 else ''}"


class Command(BaseCommand):
    help = (
        "Delete the games no one has moved in for PLAY_ANONYMOUS_GAME_DAYS days (dealt without "
        "an account) or PLAY_GAME_DAYS days (dealt by a user), and the packs no game uses."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        pruned = games_delete_expired()
        self.stdout.write(
            f"Deleted {_plural(pruned.games, 'game')} no one had moved in for "
            f"{settings.PLAY_ANONYMOUS_GAME_DAYS} days (dealt without an account) or "
            f"{settings.PLAY_GAME_DAYS} days (dealt by a user), and "
            f"{_plural(pruned.packs, 'unused pack')} built for games."
        )
