"""API tokens: what scripts send instead of a session (`Authorization: Token <key>`)."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models

TOKEN_PREFIX = "mk_"


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_token_key() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(30)


class ApiToken(models.Model):
    """Only the token's SHA-256 is stored: the key itself is shown once, when it is made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tokens"
    )
    name = models.CharField(max_length=80)
    digest = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=12)  # the key's first characters, to tell tokens apart
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"


class CodeScope(models.Model):
    """The word every custom set code of a user starts with: `<scope>-<rest>`.

    A scope holds no hyphen, so the text before a code's first hyphen names one scope and no
    two users' codes can ever meet: a user can only ask for codes of their own scope, and a
    refusal ("taken") can only be about their own sets or sets anyone may open. Given when the
    user is made (so holding one says nothing about sets) and never changed, not even when the
    user is renamed."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="code_scope"
    )
    scope = models.SlugField(max_length=30, unique=True)

    def __str__(self) -> str:
        return self.scope
