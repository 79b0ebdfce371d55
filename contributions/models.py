"""Players' proposals for the official sets: a new card, or a change to one, with the
evidence for it; curators accept (a new revision of the card), reject or ask for changes.

A proposal is private: only its proposer and the set's curators see it (anyone else gets
a 404), and its photo of the physical card is served only to them."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from catalog.models import Card, CardRevision, CardSet


class ProposalStatus(models.TextChoices):
    OPEN = "open", "Waiting for review"
    CHANGES_REQUESTED = "changes_requested", "Changes asked for"
    ACCEPTED = "accepted", "Accepted"
    REJECTED = "rejected", "Rejected"
    WITHDRAWN = "withdrawn", "Withdrawn"


# The statuses a proposal can still move from (a curator's decision is final).
PENDING_STATUSES = (ProposalStatus.OPEN, ProposalStatus.CHANGES_REQUESTED)


class Proposal(models.Model):
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="proposals")
    # The card to change; None for a new card.
    card = models.ForeignKey(
        Card, null=True, blank=True, on_delete=models.PROTECT, related_name="proposals"
    )
    # The proposed card's name, for the queue and for flagging duplicate new cards.
    name = models.CharField(max_length=80, db_index=True)
    # The proposed document (parsed and dumped by the engine, so it always parses).
    document = models.JSONField()
    # The revision of the card the proposal was made against, and its document, kept for
    # the three-way difference once the card has moved on.
    base_revision = models.PositiveIntegerField(null=True, blank=True)
    base_document = models.JSONField(null=True, blank=True)
    evidence = models.TextField()
    # A photo of the physical card: stored re-encoded without its metadata (EXIF, GPS), in
    # the private media storage, read only through the proposal's photo view.
    photo = models.ImageField(upload_to="evidence/%Y/%m/", blank=True)
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposals"
    )
    status = models.CharField(
        max_length=20,
        choices=ProposalStatus.choices,
        default=ProposalStatus.OPEN,
        db_index=True,
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    # Why it was rejected, or what to change.
    review_note = models.TextField(blank=True)
    # The revision accepting it made.
    accepted_revision = models.ForeignKey(
        CardRevision, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["card_set", "status"], name="proposal_set_status_idx"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.name} ({self.card_set.code})"

    @property
    def is_new_card(self) -> bool:
        return self.card_id is None

    @property
    def is_pending(self) -> bool:
        return self.status in PENDING_STATUSES

    @property
    def is_stale(self) -> bool:
        """A pending change whose card has been saved since the proposal's base revision."""
        return (
            self.is_pending
            and self.card is not None
            and self.base_revision is not None
            and self.card.revision != self.base_revision
        )
