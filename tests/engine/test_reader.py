"""The bounded reader (validator/engine/cards/reader.py): each limit refuses with its line and
its number, and documents just within the limits are read."""

import pytest

from tests.hostile import alias_bomb, byte_alias_bomb, json_string_bomb, nested_json, nested_yaml
from validator.engine import (
    CardDocumentError,
    DocumentTooLarge,
    ReadLimits,
    json_depth,
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


def test_an_alias_bomb_of_few_values_is_refused_for_its_bytes() -> None:
    # Issue 34: 15,000 bytes aliased ten times a level. Lines 1-3 hold 15,000 + 150,000 +
    # 1,500,000 bytes (and three one-byte keys), 1,665,003 in all; line 4's first alias adds
    # 1,500,000 more, past 2,000,000. Values: 3 + 10 + 10 + ... stay far below 200,000.
    error = refusal(read_yaml, byte_alias_bomb(15_000, levels=5, width=10))
    assert isinstance(error, DocumentTooLarge)
    assert "more than 2,000,000 bytes of text once its aliases" in error.errors[0].message
    assert error.errors[0].line == 4
    # The same shape one level shorter is 1,665,003 bytes: read.
    assert read_yaml(byte_alias_bomb(15_000, levels=2, width=10)).data["l2"][9][9] == "x" * 15_000


def test_expanded_bytes_follow_the_size_limit_unless_set() -> None:
    text = byte_alias_bomb(100, levels=1, width=10)  # 100 + 1,000 bytes of scalars, + "x", "l1"
    assert read_yaml(text, limits=ReadLimits(max_expanded_bytes=1_103)).data is not None
    assert "more than 1,102 bytes" in str(refusal(read_yaml, text, max_expanded_bytes=1_102))
    # Unset, the bound is the document's: 149 bytes written, 1 + 100 + 2 + 200 + 2 + 400 = 705
    # bytes of scalars expanded.
    small = byte_alias_bomb(100, levels=2, width=2)
    assert len(small) < 600
    assert "more than 600 bytes of text" in str(refusal(read_yaml, small, max_bytes=600))
    assert read_yaml(small, limits=ReadLimits(max_bytes=705)).data is not None


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("? [1]\n: 2\n", "list"),
        ("{[1]: 2}\n", "list"),
        ("? {a: 1}\n: 2\n", "map"),
        ("k: &k [1]\n? *k\n: 2\n", "list"),
        ("name: Probe\neffects:\n  - {[type]: death}\n", "list"),
    ],
)
def test_a_key_that_is_a_list_or_a_map_is_refused(text: str, shape: str) -> None:
    error = refusal(read_yaml, text)
    assert f"a key must be a word or a number, not a {shape}" in str(error)
    assert error.errors[0].line is not None


def test_a_key_that_is_an_alias_of_a_word_is_read() -> None:
    assert read_yaml("k: &k name\n? *k\n: 2\n").data == {"k": "name", "name": 2}


@pytest.mark.parametrize(
    ("written", "digits"),
    [
        ("0x" + "f" * 4000, 4000),
        ("0" + "7" * 101, 102),  # YAML 1.1's octal
        ("0b" + "1" * 400, 400),
        ("-0x" + "F" * 101, 101),
        ("1" + "_000" * 40, 121),
        ("1." + "5" * 200, 202),
        ("1.0e+" + "9" * 150, 155),
    ],
)
def test_numbers_in_any_base_are_bounded_like_decimal_ones(written: str, digits: int) -> None:
    error = refusal(read_yaml, f"tags: [{written}]\n")
    assert f"a number of {digits} digits (at most 100)" in str(error)


def test_numbers_in_other_bases_within_the_limit_are_read() -> None:
    assert read_yaml("a: 0x1f\nb: 017\nc: 0b101\nd: 1.5\n").data == {
        "a": 31,
        "b": 15,
        "c": 5,
        "d": 1.5,
    }


def test_json_fractions_are_bounded_like_whole_numbers() -> None:
    assert "202 digits" in str(refusal(read_json, "[1." + "5" * 200 + "]"))
    assert read_json("[1.5, -2e3]") == [1.5, -2000.0]


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ('["]"]', 1),
        ('["\\"]"]', 1),  # an escaped quote does not end the string
        ('["\\\\", [1]]', 2),  # an escaped backslash does, and the list after it counts
        ('{"a": "[[[", "b": [{}]}', 3),
        ('"[[[', 0),  # an unterminated string holds everything after it
        ("[[[]]", 3),
    ],
)
def test_json_depth_skips_strings_and_their_escapes(text: str, depth: int) -> None:
    assert json_depth(text, stop_after=40) == depth


def test_the_json_string_bomb_is_a_syntax_error() -> None:
    # Issue 34: 200 KB of backslash-quote pairs; its cost is measured by the abuse suite.
    bomb = json_string_bomb(100_000)
    assert json_depth(bomb, stop_after=40) == 0
    assert "JSON syntax: Unterminated string" in str(refusal(read_json, bomb))


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


def test_an_aliased_item_takes_the_line_of_its_alias() -> None:
    parsed = read_yaml("x: &x {a: 1}\ny: [*x,\n  *x]\n")
    assert parsed.lines[("x", "a")] == 1
    assert parsed.lines[("y", 0)] == 2 and parsed.lines[("y", 1)] == 3


def test_an_anchor_defined_twice_is_named() -> None:
    error = refusal(read_yaml, "a: &x 1\nb: &x 2\n")
    assert "the anchor &x is defined twice" in str(error) and error.errors[0].line == 2


@pytest.mark.parametrize(
    "text", ["x: !!set {a, b}\n", "x: !!omap [{a: 1}]\n", "!!pairs [{a: 1}]\n"]
)
def test_collections_of_other_types_are_refused(text: str) -> None:
    assert "is not read here: write a plain list or map" in str(refusal(read_yaml, text))


def test_one_document_only() -> None:
    assert "a single document, but found another one" in str(
        refusal(read_yaml, "a: 1\n---\nb: 2\n")
    )
    assert read_yaml("").data is None and read_yaml("# nothing\n").lines == {}
