"""The whole catalog at once, for the commands and the rules engine that read every card
(validation, benches, scenarios, simulations). Reads Card."""

from __future__ import annotations

from catalog.models import Card
from validator.engine import CardLibrary, parse_card


def catalog_cards(*, set_codes: list[str] | None = None) -> list[tuple[str, dict[str, object]]]:
    """(set code, card document) for every card, optionally of some sets only."""
    cards = Card.objects.filter(card_set__deleted_at__isnull=True)
    if set_codes is not None:
        cards = cards.filter(card_set__code__in=set_codes)
    return list(cards.order_by("card_set__code", "name").values_list("card_set__code", "document"))


def catalog_card_library(*, set_codes: list[str] | None = None) -> CardLibrary:
    """The catalog's cards as the engine's card library (scenarios, simulations)."""
    library = CardLibrary()
    for set_code, document in catalog_cards(set_codes=set_codes):
        library.add(set_code, parse_card(document))
    return library
