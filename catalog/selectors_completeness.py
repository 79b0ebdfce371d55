"""Reads of how complete an official set is, what is missing of it, and where each card's
facts come from (issue 18: the completeness figures, the "Help complete this set" page and
the card page's provenance). The definitions are in docs/completeness.md."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Final

from catalog.models import Card, CardRevision, CardSet
from catalog.provenance import accepted_revisions, card_contributions, provenance_merged
from catalog.selectors import kind_label
from validator.engine import CardProvenance, unknown_stats

# Kinds of card dealt outside both decks and outside the box's count (SpongeBob's Role
# cards): a deck of None is no gap for them, and they leave the box's unnamed cards alone.
OUTSIDE_THE_BOX: Final[frozenset[str]] = frozenset({"role"})


@dataclass(frozen=True)
class CardGap:
    """What is not known of one card. `stats`: the labels of its kind's stats not known
    (validator.engine.unknown_stats); `text`: "" when its rules are fully encoded, else
    "partial" or "text_only"; `provisional_name`: its printed name is uncertain (one
    informal source)."""

    name: str
    slug: str
    kind: str
    kind_label: str
    stats: tuple[str, ...] = ()
    copies_unknown: bool = False
    deck_unknown: bool = False
    kind_unknown: bool = False
    text: str = ""
    provisional_name: bool = False

    @property
    def missing(self) -> bool:
        return bool(
            self.stats
            or self.copies_unknown
            or self.deck_unknown
            or self.kind_unknown
            or self.text
            or self.provisional_name
        )


@dataclass(frozen=True)
class Meter:
    """One figure of a set's completeness as the set page draws it: `value` of `total`."""

    key: str
    label: str
    value: int
    total: int


@dataclass(frozen=True)
class Completeness:
    """How complete a set is (docs/completeness.md). `cards_in_box`: the box's size, None
    when not known; `known_cards`: the set's live cards; `known_copies`: the sum of the
    copies known; `stats_known`: cards whose kind is known and every stat of it too; `full`:
    fully encoded cards; `verified`: cards the reference is sure of (confidence "high") or
    that a curator accepted a player's contribution for; `provisional`: cards whose printed
    name is uncertain; `copies_unknown`: cards whose copies are not known; `unnamed`: the
    box's cards not named yet, None when the box's size is not known."""

    cards_in_box: int | None
    known_cards: int
    known_copies: int
    stats_known: int
    full: int
    verified: int
    provisional: int
    copies_unknown: int
    unnamed: int | None

    @property
    def named(self) -> int | None:
        """The box's cards that are named (a card of unknown copies counted once)."""
        if self.cards_in_box is None or self.unnamed is None:
            return None
        return self.cards_in_box - self.unnamed

    @property
    def meters(self) -> list[Meter]:
        """The figures as parts of a whole, in the order the set page reads them."""
        meters = []
        if self.cards_in_box is not None and self.named is not None:
            meters.append(Meter("named", "Cards of the box named", self.named, self.cards_in_box))
        total = self.known_cards
        meters += [
            Meter("stats_known", "Every stat known", self.stats_known, total),
            Meter("copies_known", "Copies known", total - self.copies_unknown, total),
            Meter("full", "Rules fully encoded", self.full, total),
            # "Verified" in the API; worded apart from the rules engine's own "verified".
            Meter("verified", "Facts confirmed", self.verified, total),
        ]
        return meters


@dataclass(frozen=True)
class GapRow:
    """One card in a group of the help page, with what it misses ("Treasures unknown")."""

    gap: CardGap
    detail: str


@dataclass(frozen=True)
class GapGroup:
    """The cards that miss one kind of fact (`key`: stats, kind, copies, text, names)."""

    key: str
    title: str
    rows: list[GapRow]
    note: str = ""


def _detail_stats(gap: CardGap) -> str:
    return f"{', '.join(gap.stats)} unknown" if gap.stats else ""


def _detail_kind(gap: CardGap) -> str:
    if gap.kind_unknown:
        return "kind and deck unknown" if gap.deck_unknown else "kind unknown"
    return "deck unknown" if gap.deck_unknown else ""


def _detail_copies(gap: CardGap) -> str:
    return "how many the box holds is unknown" if gap.copies_unknown else ""


def _detail_text(gap: CardGap) -> str:
    return {"partial": "rules text partly encoded", "text_only": "rules text not encoded"}.get(
        gap.text, ""
    )


def _detail_name(gap: CardGap) -> str:
    return "printed name uncertain" if gap.provisional_name else ""


# The help page's groups, in the order a contributor can best fill them.
_GROUPS: Final = (
    ("stats", "Stats not known", _detail_stats, ""),
    ("kind", "Kind or deck not known", _detail_kind, ""),
    ("copies", "Copies not known", _detail_copies, ""),
    ("text", "Rules text not encoded", _detail_text, ""),
    (
        "names",
        "Provisional names",
        _detail_name,
        "These names come from one informal source: the printed name may differ.",
    ),
)


@dataclass(frozen=True)
class SetHelp:
    """The "Help complete this set" page: the figures and every card with a gap, grouped
    by what is missing (a card may be in several groups), each group in the set's order;
    a group with no card is left out."""

    completeness: Completeness
    gaps: list[CardGap]

    @property
    def groups(self) -> list[GapGroup]:
        groups = []
        for key, title, detail, note in _GROUPS:
            rows = [GapRow(g, text) for g in self.gaps if (text := detail(g))]
            if rows:
                groups.append(GapGroup(key, title, rows, note))
        return groups


def _set_rows(card_set: CardSet) -> tuple[list[Card], set[int]]:
    """The set's live cards in its order and the ids of those with an accepted contribution
    in this database: two queries, whatever the set's size."""
    cards = list(
        Card.objects.filter(card_set=card_set)
        .order_by("pk")
        .only(
            "pk",
            "name",
            "slug",
            "kind",
            "deck",
            "copies",
            "encoding",
            "document",
            "document_hash",
            "provenance",
        )
    )
    contributed = set(
        CardRevision.objects.filter(accepted_revisions(), card__in=[c.pk for c in cards])
        .values_list("card_id", flat=True)
        .distinct()
    )
    return cards, contributed


def _gap(card: Card) -> CardGap:
    provenance = card.provenance or {}
    kind_unknown = card.kind == "unknown"
    return CardGap(
        name=card.name,
        slug=card.slug,
        kind=card.kind,
        kind_label="Kind not known" if kind_unknown else kind_label(card.kind),
        stats=tuple(unknown_stats(card.typed)),
        copies_unknown=card.copies is None,
        deck_unknown=not card.deck and card.kind not in OUTSIDE_THE_BOX,
        kind_unknown=kind_unknown,
        text="" if card.encoding == "full" else card.encoding,
        provisional_name=bool(provenance.get("name_uncertain")),
    )


def _verified(card: Card, contributed: set[int]) -> bool:
    provenance = card.provenance or {}
    return (
        provenance.get("confidence") == "high"
        or bool(provenance.get("contributions"))
        or card.pk in contributed
    )


def _completeness(card_set: CardSet, cards: list[Card], contributed: set[int]) -> Completeness:
    gaps = [_gap(card) for card in cards]
    # A card of unknown copies names at least one card of the box.
    in_box = sum(c.copies or 1 for c in cards if c.kind not in OUTSIDE_THE_BOX)
    box = card_set.cards_in_box
    return Completeness(
        cards_in_box=box,
        known_cards=len(cards),
        known_copies=sum(c.copies or 0 for c in cards),
        stats_known=sum(1 for g in gaps if not g.stats and not g.kind_unknown),
        full=sum(1 for c in cards if c.encoding == "full"),
        verified=sum(1 for c in cards if _verified(c, contributed)),
        provisional=sum(1 for g in gaps if g.provisional_name),
        copies_unknown=sum(1 for c in cards if c.copies is None),
        unnamed=None if box is None else max(0, box - in_box),
    )


def set_completeness(*, card_set: CardSet) -> Completeness:
    """The completeness figures of a set (docs/completeness.md), from one read of its cards
    and one of its accepted contributions."""
    cards, contributed = _set_rows(card_set)
    return _completeness(card_set, cards, contributed)


def set_help(*, card_set: CardSet) -> SetHelp:
    """The "Help complete this set" page: the figures, and what is missing of each card that
    misses something (in the set's order), from one read."""
    cards, contributed = _set_rows(card_set)
    gaps = [gap for gap in map(_gap, cards) if gap.missing]
    return SetHelp(_completeness(card_set, cards, contributed), gaps)


# --------------------------------------------------------------------------------------------
# A card's provenance, for its page
# --------------------------------------------------------------------------------------------

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
    uncertain, the accepted contributions oldest first, other printings' wording and the
    questions no source settles (`disputed`). For a custom card: its maker."""

    official: bool
    maker: str = ""
    groups: list[tuple[str, list[SourceLink]]] = field(default_factory=list)
    uncited: list[str] = field(default_factory=list)
    confidence: str = ""
    confidence_words: str = ""
    name_uncertain: bool = False
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
