"""What the accounts pages read."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from accounts.models import ApiToken


def user_get(*, username: str) -> User | None:
    """The active user with this username, or None."""
    return User.objects.filter(username=username, is_active=True).first()


def user_tokens(*, user: User) -> QuerySet[ApiToken]:
    """The user's API tokens, newest first."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
