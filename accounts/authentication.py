"""`Authorization: Token <key>` for scripts; the session stays the way for browsers."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.models import ApiToken, token_digest

# last_used_at is written at most this often, so reads do not each become a write.
LAST_USED_RESOLUTION = timedelta(minutes=5)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("give the token as 'Authorization: Token <key>'")
        try:
            key = header[1].decode()
        except UnicodeDecodeError as exc:
            raise exceptions.AuthenticationFailed(
                "the token has characters a key never has"
            ) from exc
        token = ApiToken.objects.select_related("user").filter(digest=token_digest(key)).first()
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("unknown or revoked token")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
