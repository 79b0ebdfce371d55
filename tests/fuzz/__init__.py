"""Fuzz tests (hypothesis, schemathesis): shared strategies that mutate valid documents.

Every fuzz test is bounded (`max_examples`) and derandomized, so CI runs the same examples.
"""

import copy
import io
import re
from collections.abc import Iterator
from typing import Any

from django.core.management import call_command
from hypothesis import strategies as st

from tests.conftest import CORE_SET
from validator.engine import DocumentError

Path = tuple[str | int, ...]

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["door", "treasure", "monster", "full", "unlimited", "Warrior", ""])
)


def json_values(*, nan: bool = False) -> st.SearchStrategy[Any]:
    """Any JSON value (small); with `nan`, the floats YAML can also give (.nan, .inf)."""
    scalars = _SCALARS | st.floats() if nan else _SCALARS
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3)
        ),
        max_leaves=8,
    )


def load_core_catalog() -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())


def _containers(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _containers(item, (*path, key))
    elif isinstance(value, list):
        yield path, value
        for index, item in enumerate(value):
            yield from _containers(item, (*path, index))


def typo(word: str, data: st.DataObject) -> str:
    """A likely misspelling: a letter dropped, doubled, swapped or changed."""
    if not word:
        return "x"
    index = data.draw(st.integers(0, len(word) - 1), label="typo at")
    how = data.draw(st.sampled_from(["drop", "double", "swap", "change"]), label="typo")
    if how == "drop" and len(word) > 1:
        return word[:index] + word[index + 1 :]
    if how == "swap" and index + 1 < len(word):
        return word[:index] + word[index + 1] + word[index] + word[index + 2 :]
    if how == "change":
        letter = data.draw(st.sampled_from("aeiouxyz_"), label="letter")
        changed = word[:index] + letter + word[index + 1 :]
        if changed != word:
            return changed
    return word[: index + 1] + word[index:]


def mutate(document: Any, data: st.DataObject, *, nan: bool = False, rounds: int = 3) -> Any:
    """A copy of `document` with 1..rounds mutations: a key or item deleted, a key renamed
    with a typo, a value replaced by any JSON value, a key or item inserted somewhere."""
    result = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, rounds), label="mutations")):
        places = list(_containers(result))
        if not places:
            return data.draw(json_values(nan=nan), label="whole document")
        _, container = data.draw(st.sampled_from(places), label="where")
        how = data.draw(st.sampled_from(["delete", "typo", "replace", "insert"]), label="how")
        value = data.draw(json_values(nan=nan), label="value")
        if isinstance(container, dict):
            keys = list(container)
            if how == "insert" or not keys:
                key = data.draw(
                    st.text(max_size=10) | st.sampled_from([typo(k, data) for k in keys] or ["x"]),
                    label="new key",
                )
                container[key] = value
                continue
            key = data.draw(st.sampled_from(keys), label="key")
            if how == "delete":
                del container[key]
            elif how == "typo":
                container[typo(str(key), data)] = container.pop(key)
            else:
                container[key] = value
        else:
            if how == "insert" or not container:
                container.insert(data.draw(st.integers(0, len(container)), label="at"), value)
                continue
            index = data.draw(st.integers(0, len(container) - 1), label="index")
            if how in ("delete", "typo"):
                del container[index]
            else:
                container[index] = value
    return result


_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")
# Where in a text an error is, when it is no place of a document: "line 3", "position 17"...
_IN_TEXT = re.compile(r"\b(line|column|position|char) \d+")
# The document was not given (a text, or bytes, was read).
NO_DOCUMENT: Any = object()


def _places(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every place of a document as the engine writes paths ("sets[0].cards[2].name"), with
    what is there."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, f"{path}[{index}]")


def _scalars(value: Any) -> Iterator[str]:
    """Every key and scalar value of a document, as text."""
    for _, item in _places(value):
        if isinstance(item, dict):
            yield from (str(key) for key in item)
        elif not isinstance(item, list):
            yield str(item)


def names_something(error: DocumentError, document: Any = NO_DOCUMENT) -> bool:
    """An error names where it is. With the `document` it was about: its path is a place of
    that document, or a key missing from a mapping of it; an error about the document as a
    whole quotes one of its keys or values, or the document is not a mapping at all. Without
    it (a text was read): a path, a line, or a position in the text."""
    if error.line or _IN_TEXT.search(error.message):
        return True
    if document is NO_DOCUMENT:
        return bool(error.path.strip())
    if not isinstance(document, dict):
        return True  # not a mapping at all: the error is about the document itself
    places = dict(_places(document))
    if error.path:  # a key may be any text, blank ones too
        if error.path in places:
            return True
        if error.path.endswith("]"):
            return False  # a list item the document does not have
        # A key missing from a mapping: its parent is a mapping of the document (the
        # document itself when the path is one plain key).
        parent, _, _ = error.path.rpartition(".")
        return not parent or isinstance(places.get(parent), dict)
    quoted = {a or b for a, b in _QUOTED.findall(error.message)}
    return bool(quoted & set(_scalars(document)))


def assert_names_paths(errors: list[DocumentError], what: str, document: Any = NO_DOCUMENT) -> None:
    assert errors, f"{what}: rejected with no errors"
    for error in errors:
        assert isinstance(error.path, str) and isinstance(error.message, str), error
        assert error.message.strip(), f"{what}: an error with no message: {error!r}"
        assert names_something(error, document), f"{what}: an error names no place: {error!r}"
