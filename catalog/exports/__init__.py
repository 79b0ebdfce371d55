"""Exporters: one protocol and one registry for every file the site hands out.

An exporter turns data it is given into a file; it never queries the database (the caller
reads what it needs through a selector first), so the same exporter serves a page, the API, a
command and a background task. Each app registers its exporters with `@register` in the module
that defines them, and imports that module when Django starts (its AppConfig.ready), so views,
commands and background jobs pick an exporter by identifier (`exporter_get`) without knowing
which app draws it, and a new format is one exporter class.

`render` is an exporter's only entry point, for the pages and the background jobs alike. Some
files point at images by address instead of only holding them (a Tabletop Simulator saved
object loads its face sheets from URLs), and a background job has those images hosted by the
site. Such an exporter takes an optional `host` keyword (an `ImageHost`): it hands each image
to `host.address` and writes the address it gets back, takes the line its instructions say
about those addresses from `host.note()`, and gives the host its linking document written
with file names (`host.keep_named`), so that the caller can point it elsewhere later (a folder
the user unpacked the zip into, a renewed link). That keeps the work in one call, drawn once,
with no second method beside the protocol's and no reading back from the file: the exporter
still queries nothing, and what is stored where is the host's, the caller's, business. (The
Tabletop Simulator exporter had a `build` method outside the protocol for this; it is gone.)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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


@dataclass(frozen=True)
class LinkedImage:
    """An image an exported file points at by address: its file name in the export, its
    bytes, and the grid of cards it holds (1 x 1 for a single card, such as a back)."""

    filename: str
    content: bytes
    columns: int
    rows: int


class ImageHost(Protocol):
    """Where a caller keeps the images an export points at (an exporter's `host` keyword).

    The exporter calls `address` once per image, in the order the images appear in its
    file, then `note`, then `keep_named`, all within its `render`."""

    def address(self, image: LinkedImage) -> str:
        """Keep `image`; the address the export writes for it (its file name when the host
        keeps it without an address of its own)."""
        ...

    def note(self) -> str | None:
        """What the export's instructions say about the addresses; None when they are the
        file names (the exporter then says how to upload the images)."""
        ...

    def keep_named(self, filename: str, content: bytes) -> None:
        """The linking document written with the images' file names for addresses."""
        ...


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


@contextmanager
def registered_instead(exporter: type[Exporter]) -> Iterator[None]:
    """Within the block, `exporter` is the one registered as its identifier, in place of
    any other; afterwards the registry is as it was. For tests that prove a path chooses
    its exporter by identifier (`register` refuses a second class under one name)."""
    known = _REGISTRY.get(exporter.identifier)
    _REGISTRY[exporter.identifier] = exporter
    try:
        yield
    finally:
        if known is None:
            del _REGISTRY[exporter.identifier]
        else:
            _REGISTRY[exporter.identifier] = known


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
