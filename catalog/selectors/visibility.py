"""Who may reach what: the sets a viewer may open by their address or see listed, and a card
by the address a link gives (its id, its set's code, its face's key). Reads CardSet and Card."""

from __future__ import annotations

import hmac

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, QuerySet

from catalog.faces import face_key
from catalog.models import Card, CardSet

Viewer = User | AnonymousUser
"""Whoever reads: a signed-in user or an anonymous visitor."""


def _viewer_id(viewer: Viewer) -> int | None:
    return viewer.pk if viewer.is_authenticated else None


def visible_filter(viewer: Viewer) -> Q:
    """The sets the viewer may open by their address, as a filter of CardSet."""
    visible = Q(official=True) | Q(visibility__in=("public", "unlisted"))
    if (viewer_id := _viewer_id(viewer)) is not None:
        visible |= Q(owner_id=viewer_id)
    return visible


def listed_filter(viewer: Viewer) -> Q:
    """The sets listings and search show the viewer, as a filter of CardSet."""
    listed = Q(official=True) | Q(visibility="public")
    if (viewer_id := _viewer_id(viewer)) is not None:
        listed |= Q(owner_id=viewer_id)
    return listed


def visible_sets(*, viewer: Viewer) -> QuerySet[CardSet]:
    """Sets the viewer may open by their address: official, public and unlisted sets, and
    every set of their own. Anyone else's private set does not exist for them (404)."""
    return CardSet.objects.filter(visible_filter(viewer))


def listed_sets(*, viewer: Viewer) -> QuerySet[CardSet]:
    """Sets that listings and search show the viewer: official and public sets, and their
    own. Unlisted sets are reached only through their address (or `set:CODE`)."""
    return CardSet.objects.filter(listed_filter(viewer))


def sets_owned_by(*, owner: User, viewer: Viewer) -> QuerySet[CardSet]:
    """A user's live sets as the viewer may see them listed (all, for the owner)."""
    sets = CardSet.objects.filter(owner=owner)
    if _viewer_id(viewer) != owner.pk:
        sets = sets.filter(visibility="public")
    return sets.annotate(card_count=Count("cards", filter=Q(cards__deleted_at__isnull=True)))


def sets_editable_by(*, viewer: Viewer) -> QuerySet[CardSet]:
    """The live sets the viewer may add cards to: their own, and official ones for staff."""
    if not viewer.is_authenticated:
        return CardSet.objects.none()
    editable = Q(owner_id=viewer.pk)
    if viewer.is_staff:
        editable |= Q(official=True)
    return CardSet.objects.filter(editable).order_by("name")


def card_get(*, card_id: int, viewer: Viewer, set_code: str | None = None) -> Card | None:
    """A card by its id, or None. Ids are sequential, so an id alone finds only a card of a
    set listed for the viewer (official, public, their own); a card of an unlisted set is
    found only when `set_code` is its set's code (the code is that set's secret, like its
    link). Another user's private set's cards are never found."""
    reachable = Q(card_set__in=listed_sets(viewer=viewer))
    if set_code:
        reachable |= Q(card_set__in=visible_sets(viewer=viewer), card_set__code=set_code)
    return Card.objects.select_related("card_set").filter(reachable, pk=card_id).first()


def card_by_face(*, card_id: int, viewer: Viewer, face: str) -> Card | None:
    """A card by its id and the key its face is addressed by, or None: by id alone a card of
    a set listed for the viewer (`card_get`); a card of an unlisted set only when `face` is
    its face's current key, which only its set's pages (and the API's answers to those who
    name the set) give out."""
    card = card_get(card_id=card_id, viewer=viewer)
    if card is not None:
        return card
    card = (
        Card.objects.select_related("card_set")
        .filter(pk=card_id, card_set__in=visible_sets(viewer=viewer))
        .first()
    )
    if card is None or not hmac.compare_digest(face_key(card), face):
        return None
    return card
