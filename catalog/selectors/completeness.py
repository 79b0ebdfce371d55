"""Reads of how complete an official set is and what is missing of it (issue 18: the
completeness figures and the "Help complete this set" page). The definitions are in
docs/completeness.md. Reads Card and the contributions accepted for them (CardRevision)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from catalog.models import Card, CardRevision, CardSet
from catalog.provenance import accepted_revisions
from catalog.selectors.labels import kind_label
from validator.engine import unknown_stats

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
