"""Password log-ins behind the lockout of accounts/limits.py (see docs/security.md).

`ThrottledModelBackend` is Django's ModelBackend with three steps around the password check:
an attempt that must wait is refused before any hashing (each check costs a fraction of a
second of CPU on purpose), a wrong password is counted, a right one clears its pair. It is
first in AUTHENTICATION_BACKENDS; ModelBackend stays listed after it only so that sessions
opened before it came keep working. A wrong password raises PermissionDenied, which ends
`authenticate()` at once: the password is never hashed a second time by ModelBackend.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import limits


class ThrottledModelBackend(ModelBackend):
    """ModelBackend, refused for a while after repeated failures (per username and address,
    and per address)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        address = limits.client_address(request) if request is not None else ""
        refusal = limits.login_wait(username=str(username), address=address)
        if refusal is not None:
            raise PermissionDenied(refusal.message)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            limits.login_failed(username=str(username), address=address)
            raise PermissionDenied("wrong username or password")
        limits.login_succeeded(username=str(username), address=address)
        return user
