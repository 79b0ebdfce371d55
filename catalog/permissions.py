"""Who may change what: one place for the rules every page and API endpoint applies."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from catalog.models import CardSet


def can_edit_set(user: User | AnonymousUser, card_set: CardSet) -> bool:
    """Official sets are edited by staff; a custom set by its owner alone."""
    if not user.is_authenticated or not user.is_active:
        return False
    if card_set.official:
        return bool(user.is_staff)
    return card_set.owner_id == user.pk


def is_public(card_set: CardSet) -> bool:
    """Whether what is shown of this set may sit in shared caches."""
    return card_set.official or card_set.visibility == "public"
