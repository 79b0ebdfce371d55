"""The bulk data files: one row per kind, pointing at its current file in the media storage."""

from django.db import models


class BulkKind(models.TextChoices):
    CARDS = "cards", "Every public card"
    SETS = "sets", "Every public set with its cards"
    OFFICIAL_PACK = "official_pack", "The engine-ready pack of the official sets"


class BulkFile(models.Model):
    kind = models.CharField(max_length=20, choices=BulkKind.choices, unique=True)
    # The stored file's name, content-hashed: bulk-data/<kind>-<sha256 prefix>.json.gz
    name = models.CharField(max_length=200)
    # The file it replaced, kept until the next change for downloads already under way.
    previous_name = models.CharField(max_length=200, blank=True)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveBigIntegerField()
    items = models.PositiveIntegerField(help_text="cards, sets or pack cards in the file")
    # A digest of what the file was made from: the file is not written again when it matches.
    source = models.CharField(max_length=64)
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["kind"]

    def __str__(self) -> str:
        return f"{self.kind}: {self.name}"
