"""The fuzz tests' own judge of an error message (tests/fuzz/__init__.py): it must be able to
say no, or every fuzz test passes whatever the engine answers."""

from typing import Any

import pytest

from tests.fuzz import NO_DOCUMENT, names_something
from validator.engine import DocumentError

PACK: dict[str, Any] = {"name": "P", "sets": [{"code": "core", "cards": [{"name": "Elf"}]}]}


@pytest.mark.parametrize(
    ("error", "document", "named"),
    [
        # A place of the document, or a key missing from one of its mappings.
        (DocumentError("sets[0].cards[0].name", "too long"), PACK, True),
        (DocumentError("sets[0].cards[0].kind", "required key is missing"), PACK, True),
        (DocumentError("format", "required key is missing"), PACK, True),
        # A place the document does not have: under a list item that is not there, or below
        # a value that is not a mapping.
        (DocumentError("sets[3].code", "required key is missing"), PACK, False),
        (DocumentError("name.first", "required key is missing"), PACK, False),
        (DocumentError("sets[3]", "too short"), PACK, False),
        (DocumentError("sets[0].cards[9]", "not a card"), PACK, False),
        (DocumentError("sets[0].cards[0]", "not a card"), PACK, True),
        # The document as a whole: only by quoting one of its keys or values.
        (DocumentError("", "unknown key 'sets'"), PACK, True),
        (DocumentError("", "set 'core' is listed twice"), PACK, True),
        (DocumentError("", "something is wrong with it"), PACK, False),
        (DocumentError("", "unknown key 'nothing-here'"), PACK, False),
        # A document that is not a mapping is itself the place.
        (DocumentError("", "Input should be a valid dictionary"), [1, 2], True),
        # A text: a line, a position, or a path.
        (DocumentError("", "bad character", line=3), NO_DOCUMENT, True),
        (DocumentError("", "cannot decode byte 0xff in position 12"), NO_DOCUMENT, True),
        (DocumentError("sha256", "checksum mismatch"), NO_DOCUMENT, True),
        (DocumentError("", "the file is broken"), NO_DOCUMENT, False),
    ],
)
def test_an_error_must_name_its_place(error: DocumentError, document: Any, named: bool) -> None:
    assert names_something(error, document) is named
