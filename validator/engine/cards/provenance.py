"""Where a set file's facts come from: the set's sources, and per card the sources that back
it, how sure they are, and the players' contributions a curator accepted.

Provenance sits beside a card's document in a set file (a card's ``provenance:`` key) and is
never part of the document itself: it says nothing about how the card plays, so it does not
change the card's hash, its revisions, its packs or its rendered text."""

from __future__ import annotations

import datetime
from typing import Annotated, Final, Literal

from pydantic import Field

from validator.engine.cards.vocabulary import Model, Prose

# How many sources a set file may name, and a card may cite; contributions a card may record.
MAX_SOURCES: Final = 100
MAX_CARD_SOURCES: Final = 20
MAX_CONTRIBUTIONS: Final = 200
# Other printings' wordings, disputes and recorded deviations a card may list (each kind).
MAX_READINGS: Final = 10

SourceId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", max_length=60)]
ShortText = Annotated[str, Field(min_length=1, max_length=200)]
Confidence = Literal["high", "medium", "low"]
SourceKind = Literal["rulebook", "code", "web"]
CONFIDENCES: Final[tuple[str, ...]] = ("high", "medium", "low")
# How sure one stat of a card is, when less than the card's own confidence says:
# `inferred`, guessed from the card's name alone (Thigh Boots: Footgear).
FieldConfidence = Literal["inferred"]
FIELD_CONFIDENCES: Final[tuple[str, ...]] = ("inferred",)
# A card document's top-level key (a stat: slot, bonus, level...).
FieldKey = Annotated[str, Field(pattern=r"^[a-z_]+$", max_length=40)]


class SourceRef(Model):
    """One source a set file draws on: a seed rulebook, a code repository or a web page."""

    id: SourceId
    kind: SourceKind
    title: ShortText
    url: Annotated[str, Field(pattern=r"^https?://\S+$", max_length=500)] | None = None
    repo: ShortText | None = None
    path: Annotated[str, Field(min_length=1, max_length=500)] | None = None
    commit: Annotated[str, Field(pattern=r"^[0-9a-f]{7,40}$")] | None = None
    seed: ShortText | None = None
    used_for: Prose | None = None


class Contribution(Model):
    """A player's proposal a curator accepted: it became revision ``revision`` of the card."""

    revision: int = Field(ge=1, le=1_000_000)
    proposer: ShortText
    curator: ShortText
    accepted_on: datetime.date
    # The proposer's evidence note is private to them and the set's curators on the site, so
    # an exported set file leaves it out; a hand-written file may say where a fact comes from.
    evidence: Prose | None = None
    proposal: int | None = Field(default=None, ge=1)
    fields: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        default_factory=list, max_length=40
    )


class Reading(Model):
    """One wording of a card: a short description in the project's own words (never the
    card's text) and the sources that show it."""

    text: Prose
    sources: list[SourceId] = Field(min_length=1, max_length=MAX_CARD_SOURCES)


class Dispute(Model):
    """A question about a card that no source settles: what is in doubt and each reading, with
    its sources. The card plays one of them (its document says which); the page shows all."""

    about: ShortText
    readings: list[Reading] = Field(min_length=2, max_length=MAX_READINGS)


class Deviation(Model):
    """Why one of the card's facts differs from the reference: the field and the reason."""

    field: FieldKey
    reason: Prose


class CardProvenance(Model):
    """A card's sources (ids of the set's ``sources:``), the confidence the reference gives
    its facts, whether its printed name is uncertain (one informal source: the card is
    provisional), the stats less sure than the rest (``field_confidence``: a stat's key and
    its own confidence, ``inferred`` for a value guessed from the card's name), the accepted
    contributions, oldest first; and, from the core audit, the wording of other printings
    (``printings``), the questions no source settles (``disputed``) and each fact that
    differs from the reference with its reason (``deviations``)."""

    sources: list[SourceId] = Field(default_factory=list, max_length=MAX_CARD_SOURCES)
    confidence: Confidence | None = None
    name_uncertain: bool = False
    field_confidence: dict[FieldKey, FieldConfidence] = Field(
        default_factory=dict, max_length=MAX_READINGS
    )
    printings: list[Reading] = Field(default_factory=list, max_length=MAX_READINGS)
    disputed: list[Dispute] = Field(default_factory=list, max_length=MAX_READINGS)
    deviations: list[Deviation] = Field(default_factory=list, max_length=MAX_READINGS)
    contributions: list[Contribution] = Field(default_factory=list, max_length=MAX_CONTRIBUTIONS)

    def cited(self) -> set[str]:
        """Every source id the card's provenance names, its readings' included."""
        ids = set(self.sources)
        for reading in [*self.printings, *(r for d in self.disputed for r in d.readings)]:
            ids.update(reading.sources)
        return ids


def provenance_dump(provenance: CardProvenance) -> dict[str, object]:
    """A card's provenance as a plain mapping, defaults left out (what a set file holds)."""
    return provenance.model_dump(mode="json", exclude_defaults=True)
