"""What changes accounts: signing up (limited per address), making and revoking API tokens;
each user's scope of set codes."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import BaseUserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils.text import slugify

from accounts import limits
from accounts.models import ApiToken, CodeScope, new_token_key, token_digest

MAX_TOKENS_PER_USER = 20
# Enough of the key to tell tokens apart in a list ("mk_" and a few random characters).
HINT_LENGTH = 10


def user_sign_up(*, form: BaseUserCreationForm[User], address: str) -> User:
    """Make the account of a valid sign-up `form` sent from `address`.

    Raises TooManyRequests, and makes nothing, past SIGNUPS_PER_HOUR accounts from that
    address in the current hour (only sign-ups that would succeed count: a form with an error
    never reaches here). Each account has its own caps on background jobs, so this bounds what
    one address can queue through fresh accounts (docs/security.md, "Fairness")."""
    limits.rate_limit(
        scope="signup",
        idents=[f"address:{address}"],
        limit=settings.SIGNUPS_PER_HOUR,
        per="hour",
        what="new accounts",
    )
    return form.save()


@transaction.atomic
def token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """Make an API token for `user` and return it with its key.

    The key is returned here and never again: only its SHA-256 digest is stored. Raises
    ValidationError when the name is blank or too long, or when the user already has
    MAX_TOKENS_PER_USER tokens.
    """
    name = name.strip()
    if not name:
        raise ValidationError("Give the token a name.", code="blank")
    max_length = ApiToken._meta.get_field("name").max_length
    if max_length is not None and len(name) > max_length:
        raise ValidationError(
            f"A token name has at most {max_length} characters.", code="max_length"
        )
    # Locking the user's row serialises two requests that would each see 19 tokens.
    User.objects.select_for_update().filter(pk=user.pk).first()
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS_PER_USER:
        raise ValidationError(
            f"You already have {MAX_TOKENS_PER_USER} tokens, the most an account may have. "
            "Revoke one you no longer use before making another.",
            code="too_many_tokens",
        )
    key = new_token_key()
    token = ApiToken.objects.create(
        user=user, name=name, digest=token_digest(key), hint=key[:HINT_LENGTH]
    )
    return token, key


def token_revoke(*, user: User, token_id: int) -> None:
    """Delete one of `user`'s tokens, so its key stops working at once.

    Raises Http404 when the user has no such token (also when it is another user's).
    """
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise Http404("No such token")


# A scope is the user's name cut down to lower-case letters and digits, starting with a letter
# and short enough to leave room in a set code; a user whose name gives none, or gives one that
# is already someone's, has their number instead (digits only, so it never meets a name).
MAX_SCOPE_LENGTH = 20


def scope_candidate(username: str) -> str | None:
    """The scope a username asks for, or None when it gives none."""
    word = re.sub(r"[^a-z0-9]", "", slugify(username))
    return word if re.fullmatch(rf"[a-z][a-z0-9]{{0,{MAX_SCOPE_LENGTH - 1}}}", word) else None


def code_scope(*, user: User) -> str:
    """The user's scope of set codes, given on first need if the user has none yet."""
    found = CodeScope.objects.filter(user=user).values_list("scope", flat=True).first()
    if found is not None:
        return found
    candidate = scope_candidate(user.username)
    for scope in (candidate, str(user.pk)):
        if scope is None:
            continue
        try:
            with transaction.atomic():
                return CodeScope.objects.create(user=user, scope=scope).scope
        except IntegrityError:
            # Someone else's scope, or this user's own given meanwhile by another request.
            found = CodeScope.objects.filter(user=user).values_list("scope", flat=True).first()
            if found is not None:
                return found
    raise AssertionError(f"no scope could be given to user {user.pk}")  # pragma: no cover


def give_code_scope(sender: type[User], instance: User, created: bool, **kwargs: Any) -> None:
    """post_save of User: a new user gets their scope at once, so that when a scope was given
    says nothing about their sets."""
    if created and not kwargs.get("raw"):
        code_scope(user=instance)
