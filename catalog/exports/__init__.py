"""Exporters: one protocol and one registry for every file the site hands out.

An exporter turns data it is given into a file; it never queries the database (the caller
reads what it needs through a selector first), so the same exporter serves a page, the API, a
command and a background task. Each app registers its exporters with `@register` in the module
that defines them, and imports that module when Django starts (its AppConfig.ready), so views
and commands pick an exporter by identifier without knowing which app draws it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from validator.engine import nearest_word

# (filename, content type, bytes): what every exporter's render returns.
Rendered = tuple[str, str, bytes]


class Exporter(Protocol):
    """What an exporter offers. `render` takes keyword arguments of the exporter's own (the
    data and options it draws from) and returns (filename, content type, bytes)."""

    identifier: str
    label: str
    content_type: str

    def render(self, *args: Any, **kwargs: Any) -> Rendered: ...


class UnknownExporter(LookupError):
    """No exporter has this identifier; the message names the nearest one."""


_REGISTRY: dict[str, type[Exporter]] = {}


def register[E: type[Exporter]](exporter: E) -> E:
    """Class decorator: make an exporter available by its identifier."""
    known = _REGISTRY.get(exporter.identifier)
    if known is not None and known is not exporter:
        raise ValueError(
            f"two exporters are called {exporter.identifier!r}: "
            f"{known.__module__}.{known.__qualname__} and "
            f"{exporter.__module__}.{exporter.__qualname__}"
        )
    _REGISTRY[exporter.identifier] = exporter
    return exporter


def exporter_get(identifier: str) -> Exporter:
    """A new instance of the exporter registered as `identifier`."""
    exporter = _REGISTRY.get(identifier)
    if exporter is None:
        hint = nearest_word(identifier, list(_REGISTRY))
        raise UnknownExporter(
            f"no exporter {identifier!r}" + (f"; did you mean {hint!r}?" if hint else "")
        )
    return exporter()


def exporters() -> Iterator[type[Exporter]]:
    """Every registered exporter, by identifier."""
    for identifier in sorted(_REGISTRY):
        yield _REGISTRY[identifier]
