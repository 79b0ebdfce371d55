"""The addresses the catalog gives out for a card's files, with what proves an unlisted set.

Card ids are sequential, so an id alone reaches only a card of a set listed for the viewer.
An unlisted set's code is its secret (like its link): the addresses its pages emit carry it,
so whoever opened the set also loads its art; nothing changes for any other set."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse

from catalog.models import Card, CardSet


def set_proof(card_set: CardSet) -> str:
    """The code an address of this set's cards must carry: an unlisted set's, else ""."""
    if card_set.official or card_set.visibility != "unlisted":
        return ""
    return card_set.code


def card_art_url(card: Card) -> str:
    """The address of a card's art: `/cards/<id>/art`, with `?set=CODE` for an unlisted set."""
    url = reverse("catalog:card_art", kwargs={"card_id": card.pk})
    proof = set_proof(card.card_set)
    return f"{url}?{urlencode({'set': proof})}" if proof else url
