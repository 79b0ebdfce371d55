"""A game is its pack, seed, seats and move log: the state is the engine's replay of the log."""

from django.conf import settings
from django.db import models

from packs.models import Pack

# The times a game may give a person to answer a fight, in seconds (0: no timer).
ANSWER_SECONDS = (0, 15, 30, 60, 120)


class SeatKind(models.TextChoices):
    PERSON = "person", "Person"
    BOT = "bot", "Bot"


class Game(models.Model):
    """A game at the table. Nothing but the log changes: the engine replays it from the seed
    (validator/engine/table.py), so any web process serves any game, after any restart."""

    # The pack's document (by its sha256) is what the cards are dealt from; a pack is immutable.
    pack = models.ForeignKey(Pack, on_delete=models.PROTECT, related_name="games")
    pack_sha256 = models.CharField(max_length=64)
    seed = models.PositiveIntegerField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # [[seat index, move object], ...] in the order the moves were made.
    moves = models.JSONField(default=list)
    finished = models.BooleanField(default=False)
    # Every person seat is played on one device, a cover screen between turns (docs/play.md).
    hot_seat = models.BooleanField(default=False)
    # Seconds a person has to answer a fight before their chance passes (0: the fight waits
    # until each person passes). docs/play.md, "Everyone answers every fight".
    answer_seconds = models.PositiveSmallIntegerField(default=0)
    # The random salt the seats' tokens are derived from with the SECRET_KEY (play/tokens.py),
    # so the dealer can be shown the links again; empty for games dealt before (random tokens).
    token_salt = models.CharField(max_length=32, blank=True, default="", editable=False)
    # What the log in words says beside the moves, which no replay says: [[line, text], ...],
    # each placed before that line of the engine's log (an undo, a restart).
    notes = models.JSONField(default=list)
    winners = models.JSONField(default=list)  # seat indexes
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        # The prune (play/retention.py) finds the games no one has moved in since a date.
        indexes = [models.Index(fields=["updated_at"], name="play_game_updated_at")]

    def __str__(self) -> str:
        return f"game {self.pk} ({len(self.moves)} moves)"


class Seat(models.Model):
    """One seat of a game. A person's seat is reached by its secret link; only the token's
    sha256 is stored, so the database never holds a working link."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=6, choices=SeatKind.choices)
    token_sha256 = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="play_seat_unique_index")
        ]

    def __str__(self) -> str:
        return f"seat {self.index + 1} of game {self.game_id} ({self.kind})"


class OpenedSeat(models.Model):
    """A seat a logged-in user opened with its link, so that "Your games" lists it on any
    device and after the session ends. No token is kept: the link is derived again from the
    game's salt (play/tokens.py). Deleted with the seat (an expired game) or the user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="opened_seats"
    )
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="openers")
    opened_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "seat"], name="play_opened_seat_unique")
        ]

    def __str__(self) -> str:
        return f"{self.seat} opened by user {self.user_id}"
