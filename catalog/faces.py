"""Where a card's face is found: an extension point that the prints app fills.

The catalog shows faces on its pages and in its API, but drawing them belongs to prints, a
layer above. Prints registers how a face is addressed when Django starts (PrintsConfig.ready),
so the catalog never imports the layer above it. (Prints hears that a face must be drawn again
as every app hears of a saved card: catalog/changes.py.)
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

from catalog.models import Card

FaceKey = Callable[[Card], str]

_face_key: FaceKey | None = None


def face_key_provider_set(provider: FaceKey) -> None:
    """Install the function that gives the key a card's face is cached and addressed by."""
    global _face_key
    _face_key = provider


def face_key(card: Card) -> str:
    """The key a card's face is cached and addressed by (the face's URL names it)."""
    if _face_key is None:
        raise ImproperlyConfigured("no app draws card faces: add 'prints' to INSTALLED_APPS")
    return _face_key(card)
