"""Writes of the authoring side: custom sets and the cards in them.

Every function checks that the actor may make the change (catalog.permissions) and raises
PermissionDenied otherwise, so a page, an API endpoint or a script cannot forget to. Card
writes go through catalog.services.card_write, which records each save as a revision.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from catalog.models import Card, CardRevision, CardSet, Visibility
from catalog.permissions import can_edit_set
from catalog.selectors import catalog_cards
from catalog.services import StaleRevisionError, card_slug, card_write
from validator.engine.cards import CardBase, CardDocumentError, DocumentError, parse_card
from validator.services import cards_validate

Actor = User | AnonymousUser

MAX_SETS_PER_USER = 200
MAX_CARDS_PER_SET = 2000

__all__ = [
    "SetError",
    "StaleRevisionError",
    "card_art_set",
    "card_create",
    "card_delete",
    "card_restore",
    "card_revert",
    "card_update",
    "set_create",
    "set_delete",
    "set_restore",
    "set_update",
]


class SetError(Exception):
    """A set change that cannot be made, with the field it concerns."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def _require_edit(actor: Actor, card_set: CardSet) -> User:
    if not can_edit_set(actor, card_set):
        raise PermissionDenied(f"you may not change the set {card_set.code!r}")
    assert isinstance(actor, User)
    return actor


def _check_visibility(visibility: str) -> None:
    if visibility not in Visibility.values:
        raise SetError("visibility", f"must be one of {', '.join(Visibility.values)}")


def set_create(
    *,
    owner: Actor,
    code: str,
    name: str,
    visibility: str = Visibility.PRIVATE,
    description: str = "",
    cards_in_box: int | None = None,
) -> CardSet:
    """A new custom set owned by `owner` (private unless said otherwise)."""
    if not isinstance(owner, User) or not owner.is_active:
        raise PermissionDenied("log in to create a set")
    code = code.strip().lower()
    if not code or slugify(code) != code:
        raise SetError("code", "use lower-case letters, digits and hyphens, e.g. 'my-first-set'")
    if not name.strip():
        raise SetError("name", "give the set a name")
    _check_visibility(visibility)
    if CardSet.everything.filter(owner=owner).count() >= MAX_SETS_PER_USER:
        raise SetError("code", f"you already have {MAX_SETS_PER_USER} sets, the most allowed")
    try:
        with transaction.atomic():
            return CardSet.objects.create(
                code=code,
                name=name.strip(),
                official=False,
                owner=owner,
                visibility=visibility,
                description=description,
                cards_in_box=cards_in_box,
            )
    except IntegrityError as exc:
        raise SetError("code", f"the code {code!r} is taken; choose another") from exc


def set_update(
    *,
    card_set: CardSet,
    actor: Actor,
    name: str | None = None,
    visibility: str | None = None,
    description: str | None = None,
    cards_in_box: int | None = None,
) -> CardSet:
    """Change a set's name, visibility, description or box size (None leaves a field)."""
    _require_edit(actor, card_set)
    if name is not None:
        if not name.strip():
            raise SetError("name", "give the set a name")
        card_set.name = name.strip()
    if visibility is not None:
        _check_visibility(visibility)
        if card_set.official and visibility != Visibility.PUBLIC:
            raise SetError("visibility", "official sets are public")
        card_set.visibility = visibility
    if description is not None:
        card_set.description = description
    if cards_in_box is not None:
        card_set.cards_in_box = cards_in_box
    card_set.save()
    return card_set


def set_delete(*, card_set: CardSet, actor: Actor) -> None:
    """Delete a set softly: it disappears everywhere, and its owner can restore it."""
    _require_edit(actor, card_set)
    if card_set.official:
        raise PermissionDenied("official sets are not deleted from the site")
    card_set.deleted_at = timezone.now()
    card_set.save(update_fields=["deleted_at", "updated_at"])


def set_restore(*, card_set: CardSet, actor: Actor) -> CardSet:
    """Bring a deleted set back, with every card it had."""
    _require_edit(actor, card_set)
    card_set.deleted_at = None
    card_set.save(update_fields=["deleted_at", "updated_at"])
    return card_set


def _typed(document: Any) -> CardBase:
    if not isinstance(document, dict):
        raise CardDocumentError([DocumentError("", "a card document is a mapping of keys")])
    return parse_card(document)


def _check_name_free(card_set: CardSet, typed: CardBase, exclude: Card | None) -> None:
    others = Card.objects.filter(card_set=card_set)
    if exclude is not None:
        others = others.exclude(pk=exclude.pk)
    if others.filter(name__iexact=typed.name).exists():
        raise CardDocumentError(
            [DocumentError("name", f"the set already has a card named {typed.name!r}")]
        )
    if others.filter(slug=card_slug(typed.name)).exists():
        raise CardDocumentError(
            [
                DocumentError(
                    "name",
                    f"{typed.name!r} would have the same web address as another card of "
                    "the set; change a word",
                )
            ]
        )


def card_create(*, card_set: CardSet, actor: Actor, document: Any, source: str = "editor") -> Card:
    """Add a card to a set from its document. Raises CardDocumentError (every error with its
    path) when the document does not parse, or its name is taken in the set."""
    user = _require_edit(actor, card_set)
    typed = _typed(document)
    if Card.objects.filter(card_set=card_set).count() >= MAX_CARDS_PER_SET:
        raise CardDocumentError(
            [DocumentError("", f"a set holds at most {MAX_CARDS_PER_SET} cards")]
        )
    try:
        with transaction.atomic():
            _check_name_free(card_set, typed, exclude=None)
            card = card_write(card_set=card_set, typed=typed, actor=user, source=source)
    except IntegrityError as exc:  # the same name saved at the same moment by another request
        raise CardDocumentError(
            [DocumentError("name", f"the set already has a card named {typed.name!r}")]
        ) from exc
    _validate(card)
    return card


def card_update(
    *, card: Card, actor: Actor, document: Any, base_revision: int, source: str = "editor"
) -> Card:
    """Save a new version of a card. `base_revision` is the revision the edit started from:
    if the card has been saved since, StaleRevisionError is raised and nothing is written."""
    user = _require_edit(actor, card.card_set)
    typed = _typed(document)
    with transaction.atomic():
        _check_name_free(card.card_set, typed, exclude=card)
        saved = card_write(
            row=card,
            card_set=card.card_set,
            typed=typed,
            actor=user,
            source=source,
            base_revision=base_revision,
        )
    _validate(saved)
    return saved


def _validate(card: Card) -> None:
    """Check a saved card in the engine at once, so its report is there when it is shown.
    Its whole set is the deck it is met in during whole games."""
    deck = catalog_cards(set_codes=[card.card_set.code])
    cards_validate(cards=[(card.card_set.code, card.document)], deck=deck)


def card_revert(*, card: Card, actor: Actor, number: int, base_revision: int) -> Card:
    """Save an earlier revision's document as the newest revision (history is kept)."""
    revision = CardRevision.objects.filter(card=card, number=number).first()
    if revision is None:
        raise CardDocumentError([DocumentError("revision", f"{card.name!r} has no r{number}")])
    return card_update(
        card=card,
        actor=actor,
        document=revision.document,
        base_revision=base_revision,
        source=f"revert to r{number}",
    )


def card_delete(*, card: Card, actor: Actor) -> None:
    """Delete a card softly: it leaves the set, search and packs; it can be restored."""
    _require_edit(actor, card.card_set)
    card.deleted_at = timezone.now()
    card.save(update_fields=["deleted_at", "updated_at"])


def card_restore(*, card: Card, actor: Actor) -> Card:
    """Bring a deleted card back, unless another card has taken its name meanwhile."""
    _require_edit(actor, card.card_set)
    with transaction.atomic():
        _check_name_free(card.card_set, parse_card(card.document), exclude=card)
        card.deleted_at = None
        card.save(update_fields=["deleted_at", "updated_at"])
    return card


def document_with_name(document: dict[str, Any], name: str) -> dict[str, Any]:
    """A copy of a document under another name (to start a card from an existing one)."""
    return {**document, "name": name}


def card_art_set(*, card: Card, actor: Actor, upload: UploadedFile[bytes]) -> Card:
    """Keep an uploaded picture as the card's art (the form has checked it with Pillow)."""
    _require_edit(actor, card.card_set)
    if card.art:
        card.art.delete(save=False)
    card.art.save(f"{card.card_set.code}-{card.slug}{_suffix(upload)}", upload, save=False)
    card.save(update_fields=["art", "updated_at"])
    return card


def _suffix(upload: UploadedFile[bytes]) -> str:
    name = (upload.name or "").lower()
    for suffix in (".png", ".jpg", ".jpeg", ".webp"):
        if name.endswith(suffix):
            return suffix
    return ".img"
