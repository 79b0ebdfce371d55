"""Seat tokens the site can give back without keeping them: each is derived from the server's
SECRET_KEY and a random salt of its game (`Game.token_salt`) by an HMAC, and only its sha256 is
stored (`Seat.token_sha256`, the lookup). The database alone (salts and digests) opens no seat;
the server can work a seat's link out again for the one who dealt the game or opened the seat.

Games dealt before the salt existed (an empty `token_salt`) keep their random tokens: they open
their seats as before, but their links cannot be given back."""

from __future__ import annotations

import base64
import hashlib
import secrets

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

# The HMAC's own key salt: a token derived here is no signature of anything else of the site.
KEY_SALT = "play.seat-token"
TOKEN_BYTES = 24  # 32 URL-safe characters, the length of the random tokens before them


def new_token_salt() -> str:
    """A new game's random salt (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def seat_token(*, salt: str, index: int, secret: str | bytes | None = None) -> str:
    """The token of seat `index` of the game whose salt is `salt`, under `secret` (the
    SECRET_KEY by default)."""
    mac = salted_hmac(KEY_SALT, f"{salt}:{index}", secret=secret, algorithm="sha256")
    return base64.urlsafe_b64encode(mac.digest()[:TOKEN_BYTES]).decode()


def given_back(*, salt: str, index: int, token_sha256: str) -> str | None:
    """The seat's token worked out again, or None: a game dealt before tokens were derived (no
    salt), or a secret key changed since the deal and no longer among SECRET_KEY_FALLBACKS
    (then the derived token opens nothing, and is not shown)."""
    if not salt:
        return None
    for secret in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]:
        token = seat_token(salt=salt, index=index, secret=secret)
        if constant_time_compare(hashlib.sha256(token.encode()).hexdigest(), token_sha256):
            return token
    return None
