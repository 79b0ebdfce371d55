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

SourceId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", max_length=60)]
ShortText = Annotated[str, Field(min_length=1, max_length=200)]
Confidence = Literal["high", "medium", "low"]
SourceKind = Literal["rulebook", "code", "web"]
CONFIDENCES: Final[tuple[str, ...]] = ("high", "medium", "low")


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


class CardProvenance(Model):
    """A card's sources (ids of the set's ``sources:``), the confidence the reference gives
    its facts, whether its printed name is uncertain (one informal source: the card is
    provisional) and the accepted contributions, oldest first."""

    sources: list[SourceId] = Field(default_factory=list, max_length=MAX_CARD_SOURCES)
    confidence: Confidence | None = None
    name_uncertain: bool = False
    contributions: list[Contribution] = Field(default_factory=list, max_length=MAX_CONTRIBUTIONS)


def provenance_dump(provenance: CardProvenance) -> dict[str, object]:
    """A card's provenance as a plain mapping, defaults left out (what a set file holds)."""
    return provenance.model_dump(mode="json", exclude_defaults=True)
