"""Sections other apps add to a user's profile page: an extension point they fill.

The profile belongs to catalog, but what a user did elsewhere (their proposals for the official
sets) belongs to apps above it, which catalog never imports. Such an app registers a provider
when Django starts (its AppConfig.ready); the profile asks every provider for its section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from django.contrib.auth.models import User

from catalog.selectors import Viewer


@dataclass(frozen=True)
class ProfileSection:
    """One section of the profile: its heading and the template that draws it (given the
    section as `section`, its values in `section.context`)."""

    title: str
    template: str
    context: dict[str, Any] = field(default_factory=dict)


class SectionProvider(Protocol):
    def __call__(self, *, owner: User, viewer: Viewer) -> ProfileSection | None:
        """The section of `owner`'s profile that `viewer` sees, or None for none."""
        ...


_providers: list[SectionProvider] = []


def profile_section_register(provider: SectionProvider) -> None:
    """Add a provider (once: registering it again is harmless)."""
    if provider not in _providers:
        _providers.append(provider)


def profile_sections(*, owner: User, viewer: Viewer) -> list[ProfileSection]:
    """The sections every registered provider gives this viewer of this profile."""
    sections = [provider(owner=owner, viewer=viewer) for provider in _providers]
    return [s for s in sections if s is not None]
