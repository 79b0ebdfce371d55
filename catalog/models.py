"""The card database.

A card's truth is its typed document (`Card.document`, the effect language of
validator/engine/cards.py). The other columns are copies of what search filters and sorts on,
written by the services from the document and never edited on their own.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import models

from validator.engine import CardBase, parse_card

# Every table's ids are BigAutoField: a number beyond this names no row and overflows the column.
MAX_ROW_ID = 2**63 - 1


class Visibility(models.TextChoices):
    PRIVATE = "private", "Private (only you)"
    UNLISTED = "unlisted", "Unlisted (anyone with the link)"
    PUBLIC = "public", "Public (listed and searchable)"


class LiveManager[M: models.Model](models.Manager[M]):
    """Rows not deleted. Deleting a set or a card only stamps `deleted_at`, so it can be
    restored; every read goes through this manager unless it asks for `everything`."""

    def get_queryset(self) -> models.QuerySet[M]:
        return super().get_queryset().filter(deleted_at__isnull=True)


class CardSet(models.Model):
    code = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    cards_in_box = models.PositiveIntegerField(null=True, blank=True)
    official = models.BooleanField(default=True)
    year = models.PositiveIntegerField(null=True, blank=True)
    description = models.TextField(blank=True)
    # Custom sets belong to their author; official sets to nobody (staff edit them).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="card_sets",
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC, db_index=True
    )
    # The sources its set file names (validator.engine.SourceRef, dumped): what each card's
    # provenance cites by id. Written by load_catalog only.
    sources = models.JSONField(default=list, blank=True)
    # Besides staff, the members of this group review players' proposals for the set.
    curators = models.ForeignKey(
        Group,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="curated_sets",
        help_text="Members of this group review proposals for this set (staff always may).",
    )
    deleted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = LiveManager["CardSet"]()
    everything = models.Manager["CardSet"]()

    class Meta:
        ordering = ["-official", "year", "name"]
        base_manager_name = "everything"

    def __str__(self) -> str:
        return self.name


class Deck(models.TextChoices):
    DOOR = "door", "Door"
    TREASURE = "treasure", "Treasure"


class Encoding(models.TextChoices):
    FULL = "full", "Fully encoded"
    PARTIAL = "partial", "Partly encoded"
    TEXT_ONLY = "text_only", "Text only"


class Card(models.Model):
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards")
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=90)
    document = models.JSONField()
    document_hash = models.CharField(max_length=64, db_index=True)
    language_version = models.PositiveSmallIntegerField(default=1)

    # Indexed copies of the document, for search and listings.
    # Blank: outside both decks, or not known.
    deck = models.CharField(max_length=10, choices=Deck.choices, blank=True)
    kind = models.CharField(max_length=30)
    copies = models.PositiveSmallIntegerField(null=True, blank=True)
    level = models.IntegerField(null=True, blank=True, db_index=True)
    treasures = models.IntegerField(null=True, blank=True, db_index=True)
    levels_gained = models.IntegerField(null=True, blank=True)
    bonus = models.IntegerField(null=True, blank=True, db_index=True)
    gold = models.IntegerField(null=True, blank=True, db_index=True)
    slot = models.CharField(max_length=20, blank=True, db_index=True)
    big = models.BooleanField(default=False, db_index=True)
    tags = models.JSONField(default=list, blank=True)
    encoding = models.CharField(max_length=10, choices=Encoding.choices, db_index=True)
    text = models.TextField(blank=True)
    # The name as people type it (catalog.names.name_key): name completion and fuzzy lookup.
    # Indexed per database by migration 0013 (card_name_key_idx).
    name_key = models.CharField(max_length=80, blank=True, default="")
    # Where its facts come from (validator.engine.CardProvenance, dumped): the set's source
    # ids, the reference's confidence, whether the name is uncertain, and the contributions
    # recorded in the set file. Not part of the document: it never makes a revision.
    provenance = models.JSONField(default=dict, blank=True)

    # The number of the revision this row holds; a save names the revision it started from.
    revision = models.PositiveIntegerField(default=1)
    art = models.ImageField(upload_to="art/%Y/%m/", blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = LiveManager["Card"]()
    everything = models.Manager["Card"]()

    class Meta:
        ordering = ["card_set", "name"]
        base_manager_name = "everything"
        # Deleted cards keep their name and address until restored; a new card may reuse them.
        constraints = [
            models.UniqueConstraint(
                fields=["card_set", "name"],
                condition=models.Q(deleted_at__isnull=True),
                name="card_unique_name_in_set",
            ),
            models.UniqueConstraint(
                fields=["card_set", "slug"],
                condition=models.Q(deleted_at__isnull=True),
                name="card_unique_slug_in_set",
            ),
        ]
        # Search orders by name: each common filter has an index that also yields that order,
        # so a page of a broad query is read off the index without sorting every match.
        indexes = [
            models.Index(fields=["name"], name="card_name_idx"),
            models.Index(fields=["kind", "name"], name="card_kind_name_idx"),
            models.Index(fields=["deck", "kind", "name"], name="card_deck_kind_name_idx"),
            # A search answers with its total: counted from this index alone, never from the
            # rows (about 1 kB each, the document included), it holds each live card's set
            # and every column the search's filters compare.
            models.Index(
                fields=[
                    "card_set",
                    "kind",
                    "deck",
                    "level",
                    "treasures",
                    "bonus",
                    "gold",
                    "slot",
                    "big",
                    "encoding",
                    "document_hash",
                    "id",
                    # Always null here; SQLite counts from an index only if it holds every
                    # column the query names, the condition's too.
                    "deleted_at",
                ],
                condition=models.Q(deleted_at__isnull=True),
                name="card_cover_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.card_set.code})"

    @property
    def typed(self) -> CardBase:
        """The stored document as the engine's typed card: the one path by which a stored
        card is read. Parsed once per document (a save that changes the document changes its
        hash, so the next read parses the new one)."""
        cached = self.__dict__.get("_typed")
        if cached is None or cached[0] != self.document_hash:
            cached = (self.document_hash, parse_card(self.document))
            self.__dict__["_typed"] = cached
        typed: CardBase = cached[1]
        return typed


class CardTag(models.Model):
    """One row per (card, tag), so `tag:undead` is an indexed lookup on every database."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="tag_rows")
    tag = models.CharField(max_length=40, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["card", "tag"], name="cardtag_unique"),
        ]

    def __str__(self) -> str:
        return self.tag


class CardFacet(models.Model):
    """What search filters on inside the document, one indexed row per (card, facet, value):
    `usable` (who may use it), `vs` (the traits and tags its conditions name) and `bad` (the
    kinds of Bad Stuff it does)."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="facets")
    facet = models.CharField(max_length=20)
    value = models.CharField(max_length=60)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["card", "facet", "value"], name="cardfacet_unique"),
        ]
        indexes = [models.Index(fields=["facet", "value"], name="cardfacet_lookup_idx")]

    def __str__(self) -> str:
        return f"{self.facet}:{self.value}"


class CardRevision(models.Model):
    """One saved version of a card: every save (editor, API, import, load, revert) adds one."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    document = models.JSONField()
    document_hash = models.CharField(max_length=64)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=200, blank=True)
    # A revision made by accepting a player's proposal: who proposed it (changed_by is the
    # curator who accepted it) and the evidence they gave, as the curator saw it.
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    evidence = models.TextField(blank=True)

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["card", "number"], name="cardrevision_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.card} r{self.number}"
