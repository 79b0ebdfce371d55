"""Delete the proxy jobs finished more than PROXY_JOB_KEEP_HOURS ago, with their PDFs:
`python manage.py prune_proxy_jobs`. The task worker does the same after every proxy job; run
this from a schedule (cron, a systemd timer) so that a site where no job runs for a while
keeps no PDF past its time either."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from prints.jobs import proxy_jobs_delete_expired


class Command(BaseCommand):
    help = "Delete proxy jobs (and their PDFs) finished more than PROXY_JOB_KEEP_HOURS ago."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = proxy_jobs_delete_expired()
        hours = settings.PROXY_JOB_KEEP_HOURS
        self.stdout.write(
            f"Deleted {deleted} proxy job{'s' if deleted != 1 else ''} finished more than "
            f"{hours} hours ago, with their PDFs."
        )
