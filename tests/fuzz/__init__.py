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


_QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"")


def names_something(error: DocumentError) -> bool:
    """An error names where it is: a path, or (for the document as a whole) a quoted term or
    a key in its message."""
    if error.path.strip():
        return True
    message = error.message.strip()
    return bool(message) and (bool(_QUOTED.search(message)) or bool(re.search(r"\w", message)))


def assert_names_paths(errors: list[DocumentError], what: str) -> None:
    assert errors, f"{what}: rejected with no errors"
    for error in errors:
        assert isinstance(error.path, str) and isinstance(error.message, str), error
        assert error.message.strip(), f"{what}: an error with no message: {error!r}"
        assert names_something(error), f"{what}: an error names no path or term: {error!r}"
