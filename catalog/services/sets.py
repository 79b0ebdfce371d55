"""Writes to sets: create, change, delete softly and restore a user's set."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from accounts.services import code_scope
from catalog.changes import catalog_changed
from catalog.models import CardSet, Visibility
from catalog.permissions import can_edit_set

Actor = User | AnonymousUser


MAX_SETS_PER_USER = 200


class SetError(Exception):
    """A set change that cannot be made, with the field it concerns."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def require_edit(actor: Actor, card_set: CardSet) -> User:
    if not can_edit_set(actor, card_set):
        raise PermissionDenied(f"you may not change the set {card_set.code!r}")
    assert isinstance(actor, User)
    return actor


def _check_visibility(visibility: str) -> None:
    if visibility not in Visibility.values:
        raise SetError("visibility", f"must be one of {', '.join(Visibility.values)}")


def owned_code(*, owner: User, code: str) -> str:
    """The code a set of `owner`'s gets when they ask for `code`: it starts with their scope
    (accounts.services.code_scope) and a hyphen, put in front unless it is there already.

    Every custom set's code lies in its owner's scope, so nobody can ask for a code of someone
    else's set: the answer to any code asked ("taken" or not) depends only on the asker's own
    sets and on sets anyone may open, never on another user's private set."""
    code = code.strip().lower()
    if not code or slugify(code) != code:
        raise SetError("code", "use lower-case letters, digits and hyphens, e.g. 'my-first-set'")
    scope = code_scope(user=owner)
    if not code.startswith(f"{scope}-"):
        code = f"{scope}-{code}"
    max_length = CardSet._meta.get_field("code").max_length or 0
    if len(code) > max_length:
        raise SetError("code", f"a set code has at most {max_length} characters, {scope}- included")
    return code


def set_codes_scoped() -> int:
    """Move every custom set whose code lies outside its owner's scope into it
    (`<scope>-<old code>`, numbered on a clash), and return how many moved.

    What accounts/migrations/0002_code_scopes did once to the sets made before scopes, for
    sets that come from elsewhere (a restored backup)."""
    max_length = CardSet._meta.get_field("code").max_length or 0
    taken = set(CardSet.everything.values_list("code", flat=True))
    moved = 0
    for card_set in CardSet.everything.filter(owner__isnull=False).select_related("owner"):
        assert card_set.owner is not None
        scope = code_scope(user=card_set.owner)
        if card_set.code.startswith(f"{scope}-"):
            continue
        base = f"{scope}-{card_set.code}"[:max_length].rstrip("-")
        code, number = base, 1
        while code in taken:
            number += 1
            code = f"{base[: max_length - len(str(number)) - 1].rstrip('-')}-{number}"
        taken.discard(card_set.code)
        taken.add(code)
        card_set.code = code
        card_set.save(update_fields=["code"])
        moved += 1
    return moved


def set_create(
    *,
    owner: Actor,
    code: str,
    name: str,
    visibility: str = Visibility.PRIVATE,
    description: str = "",
    cards_in_box: int | None = None,
) -> CardSet:
    """A new custom set owned by `owner` (private unless said otherwise), its code in the
    owner's scope (see `owned_code`: asking for "dragons", alice gets "alice-dragons")."""
    if not isinstance(owner, User) or not owner.is_active:
        raise PermissionDenied("log in to create a set")
    code = owned_code(owner=owner, code=code)
    if not name.strip():
        raise SetError("name", "give the set a name")
    _check_visibility(visibility)
    if CardSet.everything.filter(owner=owner).count() >= MAX_SETS_PER_USER:
        raise SetError("code", f"you already have {MAX_SETS_PER_USER} sets, the most allowed")
    try:
        with transaction.atomic():
            catalog_changed()
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
    require_edit(actor, card_set)
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
    catalog_changed()
    return card_set


def set_delete(*, card_set: CardSet, actor: Actor) -> None:
    """Delete a set softly: it disappears everywhere, and its owner can restore it."""
    require_edit(actor, card_set)
    if card_set.official:
        raise PermissionDenied("official sets are not deleted from the site")
    card_set.deleted_at = timezone.now()
    card_set.save(update_fields=["deleted_at", "updated_at"])
    catalog_changed()


def set_restore(*, card_set: CardSet, actor: Actor) -> CardSet:
    """Bring a deleted set back, with every card it had."""
    require_edit(actor, card_set)
    card_set.deleted_at = None
    card_set.save(update_fields=["deleted_at", "updated_at"])
    catalog_changed()
    return card_set
