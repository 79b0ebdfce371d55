"""Where stored packs come from, for the proxy page: an extension point the packs app fills.

Proxy sheets can print one of the user's packs, but packs are built by the packs app, which
draws its Tabletop Simulator sheets with this app's faces and so sits above it. The packs app
registers its pack store when Django starts (PacksConfig.ready), so prints never imports it.
"""

from __future__ import annotations

from typing import Any, Protocol

from catalog.selectors import Viewer


class PackSource(Protocol):
    """The packs a viewer may print."""

    def choices(self, *, viewer: Viewer) -> list[tuple[int, str]]:
        """(id, name) of the viewer's packs, newest first."""
        ...

    def document(self, *, pack_id: int, viewer: Viewer) -> dict[str, Any] | None:
        """The pack document of one of the viewer's packs, or None."""
        ...


class _NoPacks:
    def choices(self, *, viewer: Viewer) -> list[tuple[int, str]]:
        return []

    def document(self, *, pack_id: int, viewer: Viewer) -> dict[str, Any] | None:
        return None


_source: PackSource = _NoPacks()


def pack_source_set(source: PackSource) -> None:
    """Install the store the proxy page reads packs from."""
    global _source
    _source = source


def pack_source() -> PackSource:
    """The installed pack store (none: no packs to print)."""
    return _source
