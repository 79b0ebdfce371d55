"""Where a card's facts come from, for its page (issue 18): its set file's provenance, its
sources resolved through its set's `sources`, and the contributions accepted for it. Reads
the card, its set, and the contributions this database accepted (catalog.provenance)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Final

from catalog.models import Card
from catalog.provenance import card_contributions, provenance_merged
from validator.engine import CardProvenance

SOURCE_GROUPS: Final[tuple[tuple[str, str], ...]] = (
    ("rulebook", "Rulebook"),
    ("code", "Code"),
    ("web", "Web"),
)
CONFIDENCE_WORDS: Final[dict[str, str]] = {
    "high": "Sources agree",
    "medium": "One source, or sources differ slightly",
    "low": "Unsure: a value is inferred or missing",
}
# A stat's own confidence (a set file's `field_confidence`), after the stat's name.
FIELD_CONFIDENCE_WORDS: Final[dict[str, str]] = {
    "inferred": "guessed from the card's name: no source states it, so the printed card may differ",
}
# A card document's keys as a player calls them, for "Treasures proposed by alice".
FIELD_LABELS: Final[dict[str, str]] = {
    "name": "Name",
    "deck": "Deck",
    "kind": "Kind",
    "copies": "Copies",
    "level": "Level",
    "treasures": "Treasures",
    "levels_gained": "Levels gained",
    "strength": "Bonus",
    "bonus": "Bonus",
    "gold": "Gold",
    "slot": "Slot",
    "big": "Big",
    "rank": "Rank",
    "tags": "Tags",
    "effects": "Rules",
    "abilities": "Abilities",
    "bad_stuff": "Bad Stuff",
    "notes": "Description",
    "encoding": "Encoding",
}


@dataclass(frozen=True)
class SourceLink:
    """One source a card cites, resolved through its set's `sources`: `url` is "" for a
    source without an address (a rulebook known by its seed); `where` says what else locates
    it (a repository's path and commit, a seed)."""

    id: str
    kind: str
    title: str
    url: str = ""
    where: str = ""
    used_for: str = ""


@dataclass(frozen=True)
class AcceptedContribution:
    """A player's proposal a curator accepted for the card."""

    fields: tuple[str, ...]
    proposer: str
    curator: str
    accepted_on: datetime.date
    revision: int


@dataclass(frozen=True)
class ReadingView:
    """A wording of the card (another printing's, or one side of a dispute) in our words, with
    the titles of the sources that show it."""

    text: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class DisputeView:
    """A question no source settles, and each reading with its sources."""

    about: str
    readings: tuple[ReadingView, ...]


@dataclass(frozen=True)
class Provenance:
    """Where a card's facts come from, for its page. For an official card: its sources
    grouped as Rulebook / Code / Web, `uncited` (ids its set does not name; a set file that
    loads has none), the reference's confidence in plain words, whether its name is
    uncertain, the stats less sure than the rest in words (`guessed`), the accepted
    contributions oldest first, other printings' wording and the questions no source
    settles (`disputed`). For a custom card: its maker."""

    official: bool
    maker: str = ""
    groups: list[tuple[str, list[SourceLink]]] = field(default_factory=list)
    uncited: list[str] = field(default_factory=list)
    confidence: str = ""
    confidence_words: str = ""
    name_uncertain: bool = False
    # The stats less sure than the rest, in words ("Slot guessed from the card's name: ...").
    guessed: list[str] = field(default_factory=list)
    contributions: list[AcceptedContribution] = field(default_factory=list)
    printings: list[ReadingView] = field(default_factory=list)
    disputed: list[DisputeView] = field(default_factory=list)

    @property
    def recorded(self) -> bool:
        """Whether anything is known of where the card comes from."""
        return bool(self.groups or self.uncited or self.confidence or self.contributions)


def _source_link(source: dict[str, Any]) -> SourceLink:
    where = []
    if source.get("repo"):
        where.append(str(source["repo"]))
    if source.get("path"):
        where.append(str(source["path"]))
    if source.get("commit"):
        where.append(f"at commit {str(source['commit'])[:10]}")
    if source.get("seed"):
        where.append(f"seed {source['seed']}")
    return SourceLink(
        id=str(source.get("id", "")),
        kind=str(source.get("kind", "")),
        title=str(source.get("title", source.get("id", ""))),
        url=str(source.get("url") or ""),
        where=", ".join(where),
        used_for=str(source.get("used_for") or ""),
    )


def field_label(key: str) -> str:
    """A card document's top-level key as a player calls it ("levels_gained": "Levels
    gained")."""
    return FIELD_LABELS.get(key, key.replace("_", " ").capitalize())


def _field_labels(keys: list[str]) -> tuple[str, ...]:
    labels: list[str] = []
    for key in keys:
        label = field_label(key)
        if label not in labels:
            labels.append(label)
    return tuple(labels)


def card_provenance(*, card: Card) -> Provenance:
    """Where the card's facts come from: its set file's provenance (sources resolved through
    the set's `sources`, confidence, uncertain name) and the contributions accepted for it,
    those the set file records and those this database accepted since, each once. A custom
    card's facts are its maker's."""
    card_set = card.card_set
    if not card_set.official:
        owner = card_set.owner
        return Provenance(official=False, maker=owner.get_username() if owner else "")
    stored = CardProvenance.model_validate(
        provenance_merged(
            card.provenance or {}, card_contributions(card_ids=[card.pk]).get(card.pk, [])
        )
    )
    sources = {str(s.get("id")): s for s in (card_set.sources or []) if isinstance(s, dict)}
    links = [_source_link(sources[i]) for i in stored.sources if i in sources]

    def reading(text: str, ids: list[str]) -> ReadingView:
        return ReadingView(
            text, tuple(_source_link(sources[i]).title if i in sources else i for i in ids)
        )

    groups = [
        (label, [link for link in links if link.kind == kind])
        for kind, label in SOURCE_GROUPS
        if any(link.kind == kind for link in links)
    ]
    return Provenance(
        official=True,
        groups=groups,
        uncited=[i for i in stored.sources if i not in sources],
        confidence=stored.confidence or "",
        confidence_words=CONFIDENCE_WORDS.get(stored.confidence or "", ""),
        name_uncertain=stored.name_uncertain,
        guessed=[
            f"{field_label(key)} {FIELD_CONFIDENCE_WORDS.get(level, level)}"
            for key, level in stored.field_confidence.items()
        ],
        contributions=[
            AcceptedContribution(
                fields=_field_labels(list(c.fields)),
                proposer=c.proposer,
                curator=c.curator,
                accepted_on=c.accepted_on,
                revision=c.revision,
            )
            for c in stored.contributions
        ],
        printings=[reading(r.text, r.sources) for r in stored.printings],
        disputed=[
            DisputeView(d.about, tuple(reading(r.text, r.sources) for r in d.readings))
            for d in stored.disputed
        ],
    )
