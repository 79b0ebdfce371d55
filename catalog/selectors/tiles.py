"""The home page's set tiles, and the rows of the grid, list and checklist views of cards (a
set's page or a search's). Reads Card, and each set's counts (counts.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import F

from catalog.faces import face_key
from catalog.models import Card, CardSet
from catalog.selectors.counts import SetCounts, set_counts
from catalog.selectors.labels import kind_label
from catalog.selectors.sets import set_cards, set_list
from catalog.selectors.visibility import Viewer
from validator.engine import CardBase, gold_label, rules_sentences, signed, slot_label


@dataclass(frozen=True)
class SetTile:
    card_set: CardSet
    counts: SetCounts


def set_tiles(*, viewer: Viewer) -> list[SetTile]:
    """The home page: each set listed for the viewer with its counts."""
    return [SetTile(s, set_counts(card_set=s)) for s in set_list(viewer=viewer)]


# The set page's views and orders; each order ends on the name, then the set's own order.
SET_VIEWS = ("grid", "list", "checklist")
SET_ORDERS: dict[str, tuple[str, ...]] = {
    "number": (),
    "name": ("name",),
    "kind": ("deck", "kind", "name"),
    "deck": ("deck", "name"),
    "level": ("level", "name"),
    "treasures": ("treasures", "name"),
    "bonus": ("bonus", "name"),
    "gold": ("gold", "name"),
    "copies": ("copies", "name"),
}
SET_DIRECTIONS = ("asc", "desc")
SET_PAGE_SIZE = 200  # every official set on one page; a big custom set is paged


@dataclass(frozen=True)
class CardEntry:
    """A card as the grid, list and checklist views show it. `number`: its number in its
    set (the order its cards were added, as on the card page); `stats`: its known stats on
    one line; `rules`: its rules text rendered from the encoding, Bad Stuff apart."""

    card: Card
    number: int | None
    face: str
    kind_label: str
    stats: str
    rules: list[str]
    bad_stuff: list[str]
    provisional: bool


def _stat_line(card: Card, typed: CardBase) -> str:
    """The stats a list row shows, short; "?" for one the card's kind has but is not known."""

    def known(value: int | None, show: Callable[[int], str]) -> str:
        return "?" if value is None else show(value)

    parts: list[str] = []
    if card.kind == "monster":
        parts.append(f"Level {known(card.level, str)}")
        treasures = card.treasures
        noun = "Treasure" if treasures == 1 else "Treasures"
        parts.append(f"{known(treasures, str)} {noun}")
        if card.levels_gained and card.levels_gained > 1:
            parts.append(f"+{card.levels_gained} levels")
    elif card.kind == "monster_enhancer":
        strength = getattr(typed, "strength", None)
        parts.append(known(strength, signed))
    elif card.kind in ("item", "ship", "one_shot", "hireling", "ally", "sidekick"):
        if card.bonus is None or card.bonus:
            parts.append(known(card.bonus, signed))
        if card.slot and card.slot != "other":
            parts.append(slot_label(card.slot))
        if card.big:
            parts.append("Big")
        if card.kind in ("item", "ship", "one_shot"):
            parts.append(known(card.gold, lambda g: gold_label(g, short=True)))
    if (rank := getattr(typed, "rank", None)) is not None:
        parts.append(f"Rank {rank}")
    return " · ".join(parts)


def card_entries(
    *, cards: Iterable[Card], numbers: dict[int, int] | None = None
) -> list[CardEntry]:
    """The rows of a grid, list or checklist of cards (a set's or a search's)."""
    entries = []
    for card in cards:
        typed = card.typed
        text = rules_sentences(typed)
        entries.append(
            CardEntry(
                card=card,
                number=None if numbers is None else numbers.get(card.pk),
                face=face_key(card),
                kind_label=kind_label(card.kind),
                stats=_stat_line(card, typed),
                rules=[*text.restrictions, *text.lines],
                bad_stuff=text.bad_stuff,
                provisional=text.provisional,
            )
        )
    return entries


@dataclass(frozen=True)
class SetBrowse:
    """One page of a set's cards in the order asked for. `out_of_range`: the page asked for
    is past the last one (nothing is shown)."""

    entries: list[CardEntry]
    total: int
    number: int
    per_page: int
    out_of_range: bool = False

    @property
    def num_pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def has_next(self) -> bool:
        return self.number < self.num_pages

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def set_browse(
    *,
    card_set: CardSet,
    deck: str = "",
    kind: str = "",
    order: str = "number",
    direction: str = "asc",
    page: int = 1,
    per_page: int = SET_PAGE_SIZE,
) -> SetBrowse:
    """A page of the set's cards, filtered by deck and kind, in one of SET_ORDERS. Cards
    without the stat an order sorts on come last either way."""
    numbers = {
        pk: i
        for i, pk in enumerate(
            Card.objects.filter(card_set=card_set).order_by("pk").values_list("pk", flat=True),
            start=1,
        )
    }
    cards = set_cards(card_set=card_set, deck=deck, kind=kind)
    fields = [*SET_ORDERS[order], "pk"]
    descending = direction == "desc"
    cards = cards.order_by(
        *(F(f).desc(nulls_last=True) if descending else F(f).asc(nulls_last=True) for f in fields)
    )
    total = cards.count()
    browse = SetBrowse([], total, page, per_page)
    if page > browse.num_pages:
        return SetBrowse([], total, page, per_page, out_of_range=True)
    start = (page - 1) * per_page
    chosen = list(cards.select_related("card_set")[start : start + per_page])
    return SetBrowse(card_entries(cards=chosen, numbers=numbers), total, page, per_page)
