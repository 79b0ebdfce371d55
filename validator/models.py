"""Stored validation reports.

A report belongs to a card *document* (its hash) checked by the code of the engine and its
checks (`check_version`: the engine's version as a label, then the digest of that code,
validator.checks.code_hash), so an unchanged card is never checked twice by the same code, and a
changed card, engine or check is checked again. A report of other code is kept (the card page
says the card is being checked again) but never read back as the current verdict. The
validator knows nothing of the catalog: cards find their report by document hash.
"""

from django.db import models


class CardCheck(models.Model):
    document_hash = models.CharField(max_length=64)
    check_version = models.CharField(max_length=100)
    set_code = models.CharField(max_length=60, blank=True)
    card_name = models.CharField(max_length=80)
    kind = models.CharField(max_length=30)
    encoding = models.CharField(max_length=10)
    status = models.CharField(max_length=5, db_index=True)  # pass / warn / fail
    verified = models.BooleanField(default=False)
    messages = models.JSONField(default=list)
    scenarios_run = models.PositiveIntegerField(default=0)
    failing_scenario = models.TextField(blank=True)
    checked_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["document_hash", "check_version"], name="cardcheck_unique_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.card_name}: {self.status}"
