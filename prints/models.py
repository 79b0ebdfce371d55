"""Proxy PDFs made in the background."""

from django.conf import settings
from django.db import models

from accounts.limits import ADDRESS_MAX_LENGTH


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ProxyJob(models.Model):
    """A proxy PDF made in the background (large selections), kept on the media storage."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    # The client address of the request that queued it: an address's jobs are counted too
    # (PROXY_JOBS_PER_ADDRESS), whatever the accounts. Empty: not queued by a request.
    requested_from = models.CharField(
        max_length=ADDRESS_MAX_LENGTH, blank=True, default="", db_index=True
    )
    selection = models.JSONField(default=dict)  # sets / pack / query / cards
    options = models.JSONField(default=dict)  # the ProxyOptions fields
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    pdf = models.FileField(upload_to="proxies/", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The table kept its name when proxies left the catalog app (no data moved).
        db_table = "catalog_proxyjob"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"proxy job {self.pk} ({self.status})"
