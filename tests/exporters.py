"""Stand-in exporters, for tests that prove a page, an API, a command or a background job
picks its exporter by identifier: registered in place of the site's (the `stand_in` fixture,
tests/conftest.py), the stand-in's file is what the path hands out."""

from __future__ import annotations

from typing import Any, ClassVar

from catalog.exports import Rendered


class StandIn:
    """Records the keyword arguments of each render and returns a file of its own."""

    identifier = "stand-in"
    label = "A test's stand-in"
    content_type = "application/octet-stream"
    filename = "stand-in.bin"
    content = b"made by the stand-in"
    calls: ClassVar[list[dict[str, Any]]] = []

    def render(self, **kwargs: Any) -> Rendered:
        self.calls.append(kwargs)
        return self.filename, self.content_type, self.content


def stand_in_class(
    identifier: str,
    *,
    base: type[StandIn] = StandIn,
    content_type: str | None = None,
    filename: str | None = None,
) -> type[StandIn]:
    """A StandIn subclass for `identifier` (a new class each time: its own `calls`)."""

    class Made(base):  # type: ignore[valid-type,misc]
        calls: ClassVar[list[dict[str, Any]]] = []

    Made.identifier = identifier
    Made.content_type = content_type or base.content_type
    Made.filename = filename or base.filename
    return Made
