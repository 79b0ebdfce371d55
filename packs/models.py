"""Built packs and the simulations played with them."""

from django.conf import settings
from django.db import models

from accounts.limits import ADDRESS_MAX_LENGTH
from prints.models import JobStatus


class Pack(models.Model):
    """A built pack: the engine-ready document as it was exported, and how it was chosen.

    The document is immutable once built (its sha256 says so); building again makes a new pack.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="packs",
    )
    name = models.CharField(max_length=120)
    # The choices that made it: set codes, query, copies changed, cards included or left out.
    selection = models.JSONField(default=dict)
    document = models.JSONField()
    sha256 = models.CharField(max_length=64, db_index=True)
    card_count = models.PositiveIntegerField(default=0)
    door_copies = models.PositiveIntegerField(default=0)
    treasure_copies = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The table kept its name when packs left the catalog app (no data moved).
        db_table = "catalog_pack"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.sha256[:12]})"


class SimulationStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class PackSimulation(models.Model):
    """Whole games played with a pack by the engine's bots, run as a background task."""

    pack = models.ForeignKey(Pack, on_delete=models.CASCADE, related_name="simulations")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # The client address of the request that queued it: an address's jobs are counted too
    # (SIMULATIONS_PER_ADDRESS), whatever the accounts. Empty: not queued by a request.
    requested_from = models.CharField(
        max_length=ADDRESS_MAX_LENGTH, blank=True, default="", db_index=True
    )
    games = models.PositiveIntegerField(default=500)
    players = models.PositiveSmallIntegerField(default=4)
    seed = models.PositiveIntegerField(default=1)
    status = models.CharField(
        max_length=10, choices=SimulationStatus.choices, default=SimulationStatus.QUEUED
    )
    games_done = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)  # the statistics, for the plots
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "catalog_packsimulation"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.games} games of {self.pack} ({self.status})"


class TtsExport(models.Model):
    """A pack's Tabletop Simulator zip made in the background, kept on the media storage."""

    pack = models.ForeignKey(Pack, on_delete=models.CASCADE, related_name="tts_exports")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tts_exports"
    )
    # The client address of the request that queued it: an address's jobs are counted too
    # (TTS_EXPORTS_PER_ADDRESS), whatever the accounts. Empty: not queued by a request.
    requested_from = models.CharField(
        max_length=ADDRESS_MAX_LENGTH, blank=True, default="", db_index=True
    )
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    done = models.PositiveIntegerField(default=0)  # faces laid out on their sheets
    total = models.PositiveIntegerField(default=0)  # distinct faces of the pack's decks
    drawn_ahead = models.PositiveIntegerField(default=0)  # of them, found already drawn
    error = models.TextField(blank=True)
    archive = models.FileField(upload_to="tts/", blank=True)
    # The saved object with the zip's file names as its FaceURL and BackURL, pointed at the
    # hosted sheets (or a folder) when it is downloaded (packs/tts/hosting.py).
    saved_object = models.FileField(upload_to="tts/", blank=True)
    # Where the saved object's URLs start ("https://cards.example.org"): SITE_URL, or the
    # address of the request that started the export. Empty: the sheets are not addressed.
    base_url = models.CharField(max_length=200, blank=True)
    # Public: every set of the pack was public (or official) when it was exported, and the
    # sheets are served to anyone who has their address. Otherwise only with `token`.
    public = models.BooleanField(default=False)
    set_codes = models.JSONField(default=list, blank=True)  # checked again when serving
    token = models.CharField(max_length=64, blank=True, db_index=True)
    token_revoked_at = models.DateTimeField(null=True, blank=True)
    # What the zip holds that its user should know of (packs.tts.exporter.TtsReport: the cards
    # exported with stats not known yet, the cards left out and why). Null until it is done.
    report = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Tabletop Simulator export {self.pk} of {self.pack_id} ({self.status})"


class TtsSheet(models.Model):
    """One image of a Tabletop Simulator export (a face sheet or a back) as hosted: stored
    once under its content's SHA-256 (`name`), whichever exports share it."""

    export = models.ForeignKey(TtsExport, on_delete=models.CASCADE, related_name="sheets")
    filename = models.CharField(max_length=100)  # its name in the zip: door-sheet-1.jpg
    sha256 = models.CharField(max_length=64, db_index=True)
    name = models.CharField(max_length=200)  # on the media storage: tts/sheets/<sha256>.jpg
    columns = models.PositiveSmallIntegerField()  # the grid TTS reads (1 x 1 for a back)
    rows = models.PositiveSmallIntegerField()
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()

    class Meta:
        ordering = ["export", "id"]
        constraints = [
            models.UniqueConstraint(fields=["export", "filename"], name="tts_sheet_once")
        ]

    def __str__(self) -> str:
        return f"{self.filename} of export {self.export_id}"
