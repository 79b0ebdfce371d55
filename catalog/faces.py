"""Where a card's face is found, and who hears that one changed: extension points that the
prints app fills.

The catalog shows faces on its pages and in its API, but drawing them belongs to prints, a
layer above. Prints registers how a face is addressed, and what to do when a card's face
changes (draw it in the background), when Django starts (PrintsConfig.ready), so the catalog
never imports the layer above it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from catalog.models import Card

FaceKey = Callable[[Card], str]
FacesChanged = Callable[[list[int]], None]

_face_key: FaceKey | None = None
_faces_changed: FacesChanged | None = None


def faces_changed_handler_set(handler: FacesChanged | None) -> None:
    """Install what hears of cards whose faces changed (their ids), or None for nobody."""
    global _faces_changed
    _faces_changed = handler


def faces_changed(card_ids: Iterable[int]) -> None:
    """Tell whoever draws faces that these cards' faces have changed, once the transaction
    that changed them commits (a rolled-back save changed nothing)."""
    ids = sorted(set(card_ids))
    handler = _faces_changed
    if ids and handler is not None:
        transaction.on_commit(lambda: handler(ids))


def face_key_provider_set(provider: FaceKey) -> None:
    """Install the function that gives the key a card's face is cached and addressed by."""
    global _face_key
    _face_key = provider


def face_key(card: Card) -> str:
    """The key a card's face is cached and addressed by (the face's URL names it)."""
    if _face_key is None:
        raise ImproperlyConfigured("no app draws card faces: add 'prints' to INSTALLED_APPS")
    return _face_key(card)
