"""A set as its pages and its file show it: the sets listed with their counts, one set by
its code, its file, its cards by deck and kind. Reads CardSet and Card, and for the set file
the contributions accepted for its cards (catalog.provenance)."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from catalog.exports.set_yaml import SetFile, set_info
from catalog.models import Card, CardSet
from catalog.provenance import card_contributions, provenance_merged
from catalog.selectors.counts import with_counts
from catalog.selectors.labels import kind_label
from catalog.selectors.visibility import Viewer, listed_sets, visible_sets


def set_list(*, viewer: Viewer) -> QuerySet[CardSet]:
    """The sets listed for the viewer, annotated with what `set_counts` reads."""
    return with_counts(listed_sets(viewer=viewer))


def set_get(*, code: str, viewer: Viewer) -> CardSet | None:
    """A set the viewer may open, with its card counts, or None."""
    return with_counts(visible_sets(viewer=viewer)).filter(code=code).first()


def set_open(*, code: str, viewer: Viewer) -> CardSet | None:
    """A set the viewer may open, or None, without the counts `set_get` adds (a card write
    needs only the set, and counting its cards costs more than the write's own queries)."""
    return visible_sets(viewer=viewer).filter(code=code).first()


def set_file(*, card_set: CardSet, provenance: bool = False) -> SetFile:
    """A set and its live cards' documents in the order they were added, for the set file;
    with `provenance`, also the set's sources and each card's provenance, its accepted
    contributions merged in (what `export_set --fixture` writes)."""
    cards = Card.objects.filter(card_set=card_set).order_by("pk")
    if not provenance:
        return SetFile(
            code=card_set.code,
            info=set_info(card_set),
            documents=list(cards.values_list("document", flat=True)),
        )
    rows = list(cards.values_list("pk", "document", "provenance"))
    contributions = card_contributions(card_ids=[pk for pk, _, _ in rows])
    return SetFile(
        code=card_set.code,
        info=set_info(card_set),
        documents=[document for _, document, _ in rows],
        sources=list(card_set.sources or []),
        provenance=[
            provenance_merged(stored or {}, contributions.get(pk, [])) for pk, _, stored in rows
        ],
    )


def set_cards(*, card_set: CardSet, deck: str = "", kind: str = "") -> QuerySet[Card]:
    """A set's cards, of one deck and one kind when given, by deck, kind and name."""
    cards = Card.objects.filter(card_set=card_set)
    if deck:
        cards = cards.filter(deck=deck)
    if kind:
        cards = cards.filter(kind=kind)
    return cards.order_by("deck", "kind", "name")


def set_kinds(*, card_set: CardSet) -> list[tuple[str, str, int]]:
    """The kinds present in a set: (kind, label, number of cards)."""
    rows = (
        Card.objects.filter(card_set=card_set)
        .values("kind")
        .annotate(n=Count("id"))
        .order_by("kind")
    )
    return [(row["kind"], kind_label(row["kind"]), row["n"]) for row in rows]
