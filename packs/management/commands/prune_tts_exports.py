"""Delete the Tabletop Simulator exports finished more than TTS_EXPORT_KEEP_HOURS ago, with
their zips: `python manage.py prune_tts_exports`. The task worker does the same after every
export; run this from a schedule (cron, a systemd timer) so that a site where no export runs
for a while keeps no zip past its time either."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from packs.tts.services import tts_exports_delete_expired


class Command(BaseCommand):
    help = (
        "Delete Tabletop Simulator exports (and their zips) finished more than "
        "TTS_EXPORT_KEEP_HOURS ago."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = tts_exports_delete_expired()
        hours = settings.TTS_EXPORT_KEEP_HOURS
        self.stdout.write(
            f"Deleted {deleted} Tabletop Simulator export{'s' if deleted != 1 else ''} finished "
            f"more than {hours} hours ago, with their zips."
        )
