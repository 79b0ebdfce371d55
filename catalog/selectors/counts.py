"""How much of a set is catalogued: the one source of every count a set shows (the home
page's tiles, the set page). Reads CardSet, annotated with counts over its live cards."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Sum

from catalog.models import CardSet


@dataclass(frozen=True)
class SetCounts:
    """How much of a set is catalogued. Distinct cards and copies are kept apart: a card
    whose copies are not known adds to `cards` and its deck, never to `copies` (the old
    tiles added nothing for it, so Booty's ten Treasure cards counted as 0 Treasure)."""

    cards: int
    door: int
    treasure: int
    neither: int  # outside both decks, or its deck not known
    copies: int  # the sum over the cards whose copies are known
    copies_known: int  # how many cards those are
    fully_encoded: int
    cards_in_box: int | None

    @property
    def copies_unknown(self) -> int:
        return self.cards - self.copies_known

    @property
    def summary(self) -> str:
        """One honest sentence: what is catalogued, what of it is known, the box's size."""
        noun = "card" if self.cards == 1 else "cards"
        text = f"{self.cards} distinct {noun} catalogued"
        if not self.cards:
            known = ""
        elif self.copies_known == self.cards:
            known = f"; copies known for all of them: {self.copies} in all"
        elif self.copies_known == 0:
            known = "; copies known for none of them"
        else:
            known = (
                f"; copies known for {self.copies_known} of them ({self.copies} in all), "
                f"not for the other {self.copies_unknown}"
            )
        box = ""
        if self.cards_in_box:
            whole = self.copies_known == self.cards and self.copies == self.cards_in_box
            box = (
                f", the whole box of {self.cards_in_box} cards"
                if whole
                else f". The box holds {self.cards_in_box} cards"
            )
        return f"{text}{known}{box}."


def _count_annotations() -> dict[str, Count | Sum]:
    # The reverse relation reads every card row, deleted or not: count only the live ones.
    live = Q(cards__deleted_at__isnull=True)
    known = live & Q(cards__copies__isnull=False)
    return {
        "card_count": Count("cards", filter=live),
        "copy_count": Sum("cards__copies", filter=known),
        "copies_known": Count("cards", filter=known),
        "door_count": Count("cards", filter=live & Q(cards__deck="door")),
        "treasure_count": Count("cards", filter=live & Q(cards__deck="treasure")),
        "full_count": Count("cards", filter=live & Q(cards__encoding="full")),
    }


def with_counts(sets: QuerySet[CardSet]) -> QuerySet[CardSet]:
    """The sets annotated with what `set_counts` reads, in the order listings show them."""
    # Annotations rather than a count per set: one query for every set of a listing.
    return sets.annotate(**_count_annotations()).order_by("-official", "year", "name")


def set_counts(*, card_set: CardSet) -> SetCounts:
    """The counts of a set, for every page that shows one (home, set page): read from the
    annotations `set_list` and `set_get` give, or counted here for a bare set."""
    if not hasattr(card_set, "copies_known"):
        card_set = CardSet.objects.filter(pk=card_set.pk).annotate(**_count_annotations()).get()
    cards: int = card_set.card_count  # type: ignore[attr-defined]
    door: int = card_set.door_count  # type: ignore[attr-defined]
    treasure: int = card_set.treasure_count  # type: ignore[attr-defined]
    return SetCounts(
        cards=cards,
        door=door,
        treasure=treasure,
        neither=cards - door - treasure,
        copies=card_set.copy_count or 0,  # type: ignore[attr-defined]
        copies_known=card_set.copies_known,  # type: ignore[attr-defined]
        fully_encoded=card_set.full_count,  # type: ignore[attr-defined]
        cards_in_box=card_set.cards_in_box,
    )
