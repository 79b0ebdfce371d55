"""Facets: what search filters on inside a card document, derived from the typed card."""

from __future__ import annotations

from validator.engine import (
    CardBase,
    ChangeCharacterCard,
    Death,
    DiscardHand,
    EffectBase,
    ItemCard,
    LoseCards,
    LoseCharacterCard,
    LoseGoldValue,
    LoseItems,
    LoseLevels,
    MonsterCard,
    OneShotCard,
    RivalsDiscard,
    RivalsTake,
    SetLevel,
)

BAD_STUFF_KINDS = ("death", "levels", "items", "hand", "class", "race")


def card_facets(card: CardBase) -> set[tuple[str, str]]:
    facets: set[tuple[str, str]] = set()
    if isinstance(card, ItemCard | OneShotCard) and card.usable_by is not None:
        facets |= {("usable", name) for _, name in card.usable_by.mentions()}
    for condition in card.all_conditions():
        facets |= {("vs", name) for _, name in condition.mentions()}
    if isinstance(card, MonsterCard):
        stack: list[EffectBase] = list(card.bad_stuff)
        while stack:
            effect = stack.pop()
            stack.extend(effect.children())
            facets |= {("bad", kind) for kind in _bad_kinds(effect)}
    return facets


def _bad_kinds(effect: object) -> set[str]:
    if isinstance(effect, Death):
        return {"death"}
    if isinstance(effect, LoseLevels | SetLevel):
        return {"levels"}
    if isinstance(effect, LoseItems | LoseGoldValue | RivalsDiscard):
        return {"items"}
    if isinstance(effect, DiscardHand):
        return {"hand"}
    if isinstance(effect, LoseCards):
        return {"items", "hand"}
    if isinstance(effect, RivalsTake):
        return {"hand"} if effect.what == "hand_card" else {"items"}
    if isinstance(effect, LoseCharacterCard | ChangeCharacterCard):
        return {effect.axis} if effect.axis in ("class", "race") else set()
    return set()
