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
    # The sets (ids) whose cards each file holds: a file is served only while every one of
    # them is still public, so a set turned private leaves no file answering with its cards.
    # Files made before this was recorded hold an empty list and are served until replaced.
    set_ids = models.JSONField(default=list, blank=True)
    previous_set_ids = models.JSONField(default=list, blank=True)
    # A digest of what the file was made from: the file is not written again when it matches.
    source = models.CharField(max_length=64)
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["kind"]

    def __str__(self) -> str:
        return f"{self.kind}: {self.name}"
