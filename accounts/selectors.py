"""What the accounts pages read."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from accounts.models import ApiToken


def user_get(*, username: str) -> User:
    """The active user with this username; Http404 when there is none."""
    return get_object_or_404(User, username=username, is_active=True)


def user_tokens(*, user: User) -> QuerySet[ApiToken]:
    """The user's API tokens, newest first."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
