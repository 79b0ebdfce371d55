"""The bounded reader (validator/engine/cards/reader.py): each limit refuses with its line and
its number, and documents just within the limits are read."""

import pytest

from tests.hostile import alias_bomb, nested_json, nested_yaml
from validator.engine import (
    CardDocumentError,
    DocumentTooLarge,
    ReadLimits,
    read_json,
    read_yaml,
    whole_number,
)


def refusal(read: object, text: str, **limits: int) -> CardDocumentError:
    with pytest.raises(CardDocumentError) as caught:
        read(text, "doc", ReadLimits(**limits))  # type: ignore[operator]
    return caught.value


def test_an_alias_bomb_is_refused_on_the_line_where_it_grows_too_large() -> None:
    error = refusal(read_yaml, alias_bomb(), max_nodes=1000)
    assert isinstance(error, DocumentTooLarge)
    # a0 holds 10 values, a1 91, a2 820, a3 7,381: line 4 passes 1,000.
    assert error.errors[0].line == 4
    assert "more than 1,000 values" in error.errors[0].message


def test_aliases_within_the_limit_are_read() -> None:
    parsed = read_yaml("x: &x {a: 1}\ny: [*x, *x]\n")
    assert parsed.data == {"x": {"a": 1}, "y": [{"a": 1}, {"a": 1}]}
    assert parsed.lines[("y",)] == 2


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    assert "inside its own anchor" in str(refusal(read_yaml, "a: &a [1, *a]\n"))


def test_nesting_is_refused_one_level_past_the_limit() -> None:
    # The mapping of `tags` is one level, each bracket one more, the innermost value one more.
    assert read_yaml(nested_yaml(8), limits=ReadLimits(max_depth=10)).data is not None
    error = refusal(read_yaml, nested_yaml(9), max_depth=10)
    assert "deeper than 10 levels" in error.errors[0].message and error.errors[0].line == 1
    assert read_json(nested_json(10), limits=ReadLimits(max_depth=10)) is not None
    assert "deeper than 10 levels" in str(refusal(read_json, nested_json(11), max_depth=10))


def test_numbers_longer_than_the_limit_are_refused_in_yaml_and_json() -> None:
    assert read_yaml("n: " + "9" * 5, limits=ReadLimits(max_number_digits=5)).data == {"n": 99999}
    assert "6 digits (at most 5)" in str(refusal(read_yaml, "n: 999999", max_number_digits=5))
    assert "6 digits (at most 5)" in str(refusal(read_json, "[-999999]", max_number_digits=5))


def test_size_is_measured_in_bytes() -> None:
    assert "larger than 10 bytes" in str(refusal(read_yaml, "a: ééééé", max_bytes=10))
    assert read_yaml("a: éé", limits=ReadLimits(max_bytes=10)).data == {"a": "éé"}


def test_duplicate_keys_are_refused_in_json_as_in_yaml() -> None:
    assert "duplicate key 'a'" in str(refusal(read_json, '{"a": 1, "a": 2}'))
    assert "duplicate key 'a'" in str(refusal(read_yaml, "a: 1\na: 2\n"))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("7", 7),
        (" 7 ", 7),
        ("-3", -3),
        ("0", 0),
        ("11", None),
        ("²", None),
        ("٣", None),
        ("1e3", None),
        ("", None),
        ("9" * 19, None),
        (True, None),
        (5, 5),
        (None, None),
    ],
)
def test_whole_number_takes_ascii_digits_within_the_range(
    raw: object, expected: int | None
) -> None:
    assert whole_number(raw, low=-5, high=10) == expected
