"""The one way text becomes data: YAML (and JSON, which is YAML too) read within limits.

Every document the site or the engine reads from a person goes through `read_yaml` or
`read_json`, so one set of limits holds everywhere: the size of the text, how deep it nests,
how many values and how many bytes it holds once its aliases are expanded, and how long a
number may be in any base. The limits are checked while the text is read, before anything is
built from it, so a small hostile document (an alias bomb, a thousand nested brackets) costs
what its size costs and no more. Keys are words or numbers, never lists or maps. Nothing here
runs a regular expression that can backtrack over the text. Each refusal names the line and
the limit.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from validator.engine.cards.documents import CardDocumentError, DocumentError


@dataclass(frozen=True)
class ReadLimits:
    """How much a document may hold. The defaults fit the largest real set file many times over
    (munchkin-core.yaml: 55 KB, depth 9, ~9,000 nodes)."""

    max_bytes: int = 2_000_000
    max_depth: int = 40
    max_nodes: int = 200_000  # counted with every alias expanded
    # The text of every scalar (keys too) counted at its length each time an alias repeats it:
    # what every reader after this one walks, copies and dumps. No larger than the text itself
    # may be (None: max_bytes), so aliases save typing but never multiply what a document
    # produces.
    max_expanded_bytes: int | None = None
    # Only bounds the cost of reading a number, in any base; the language bounds each value
    # far lower.
    max_number_digits: int = 100

    @property
    def expanded_bytes(self) -> int:
        return self.max_bytes if self.max_expanded_bytes is None else self.max_expanded_bytes


DEFAULT_LIMITS = ReadLimits()


class DocumentTooLarge(CardDocumentError):
    """A document refused for its size or shape before it was read; says which limit."""


def _too_large(message: str, source: str, line: int | None = None) -> DocumentTooLarge:
    return DocumentTooLarge([DocumentError("", message, line)], source)


def _too_deep(limits: ReadLimits, source: str, line: int | None = None) -> DocumentTooLarge:
    return _too_large(f"the document nests deeper than {limits.max_depth} levels", source, line)


def _check_digits(digits: int, limits: ReadLimits, source: str, line: int | None = None) -> None:
    if digits > limits.max_number_digits:
        message = f"a number of {digits} digits (at most {limits.max_number_digits})"
        raise _too_large(message, source, line)


_BASE_PREFIXES = ("0x", "0o", "0b", "0X", "0O", "0B")


def number_digits(text: str) -> int:
    """How many digits a written number has, in whatever base it is written: a sign, a base
    prefix (0x, 0o, 0b) and digit separators (_) are not digits; every other character is
    counted, so an exponent or a fraction counts too."""
    body = text.strip().lstrip("+-")
    if body.startswith(_BASE_PREFIXES):
        body = body[2:]
    return len(body) - body.count("_")


@dataclass
class ParsedYaml:
    data: Any
    lines: dict[tuple[str | int, ...], int] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# YAML: strict (no duplicate keys, YAML 1.2 booleans) and bounded while it is composed
# --------------------------------------------------------------------------------------------


class _BoundedLoader(yaml.SafeLoader):
    """Safe YAML that refuses duplicate keys, and stops composing as soon as the document nests
    too deep or holds too many nodes (aliases counted at their full expanded size)."""

    def __init__(self, stream: str, limits: ReadLimits, source: str) -> None:
        self.limits = limits
        self.source = source
        super().__init__(stream)
        self._depth = 0
        self._expanded = 0
        self._expanded_bytes = 0
        # What each composed node costs once expanded: (values, bytes).
        self._sizes: dict[int, tuple[int, int]] = {}
        self._open_anchors: set[str] = set()

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        line = event.start_mark.line + 1
        anchor = getattr(event, "anchor", None)
        if isinstance(event, yaml.AliasEvent):
            if anchor in self._open_anchors:
                # A value that holds itself has no end: nothing downstream could walk it.
                raise _too_large(f"the alias *{anchor} is inside its own anchor", self.source, line)
            node = super().compose_node(parent, index)
            # An alias costs what it points to: that is what every reader after this one walks.
            self._count(*self._sizes.get(id(node), (1, 0)), line)
            return node
        self._depth += 1
        if self._depth > self.limits.max_depth:
            raise _too_deep(self.limits, self.source, line)
        before = (self._expanded, self._expanded_bytes)
        if anchor is not None:
            self._open_anchors.add(anchor)
        node = super().compose_node(parent, index)
        if anchor is not None:
            self._open_anchors.discard(anchor)
        self._depth -= 1
        text_bytes = (
            len(node.value.encode("utf-8", "surrogatepass"))
            if isinstance(node, yaml.ScalarNode)
            else 0
        )
        self._count(1, text_bytes, line)
        if node is not None:
            self._sizes[id(node)] = (
                self._expanded - before[0],
                self._expanded_bytes - before[1],
            )
        return node

    def _count(self, nodes: int, text_bytes: int, line: int) -> None:
        self._expanded += nodes
        self._expanded_bytes += text_bytes
        if self._expanded > self.limits.max_nodes:
            raise _too_large(
                f"the document holds more than {self.limits.max_nodes:,} values once its "
                "aliases (*name) are expanded",
                self.source,
                line,
            )
        if self._expanded_bytes > self.limits.expanded_bytes:
            raise _too_large(
                f"the document holds more than {self.limits.expanded_bytes:,} bytes of "
                "text once its aliases (*name) are expanded",
                self.source,
                line,
            )


def _construct_mapping(loader: _BoundedLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            # `? [1]` or `{[1]: 2}`: YAML allows it, but no document of the site has such a key
            # and nothing downstream could name it in an error.
            shape = "list" if isinstance(key_node, yaml.SequenceNode) else "map"
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"a key must be a word or a number, not a {shape}",
                key_node.start_mark,
            )
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"duplicate key {key!r} (first at line {seen[key] + 1})",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


def _construct_int(loader: _BoundedLoader, node: yaml.ScalarNode) -> Any:
    digits = number_digits(str(node.value))
    _check_digits(digits, loader.limits, loader.source, node.start_mark.line + 1)
    return loader.construct_yaml_int(node)


def _construct_float(loader: _BoundedLoader, node: yaml.ScalarNode) -> Any:
    digits = number_digits(str(node.value))
    _check_digits(digits, loader.limits, loader.source, node.start_mark.line + 1)
    return loader.construct_yaml_float(node)


_BoundedLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_BoundedLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)

# YAML 1.2 booleans only: in YAML 1.1 `on`, `off`, `yes` and `no` are booleans, and the scenario
# format uses `on:` as a key.
_BoundedLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_BoundedLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


def _line_map(root: yaml.Node) -> dict[tuple[str | int, ...], int]:
    """The line of every key and item. A node reached again through an alias is not walked
    again: paths inside it take the alias's line (see `line_for`)."""
    lines: dict[tuple[str | int, ...], int] = {}
    walked: set[int] = set()
    stack: list[tuple[yaml.Node, tuple[str | int, ...]]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        lines.setdefault(path, node.start_mark.line + 1)
        if id(node) in walked:
            continue
        walked.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                child = (*path, key_node.value)
                lines[child] = key_node.start_mark.line + 1
                stack.append((value_node, child))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*path, index)) for index, item in enumerate(node.value))
    return lines


def _check_size(text: str, source: str, limits: ReadLimits) -> None:
    # Characters first: a cheap bound that never encodes a huge text just to measure it.
    if len(text) > limits.max_bytes or len(text.encode("utf-8")) > limits.max_bytes:
        raise _too_large(f"the document is larger than {limits.max_bytes:,} bytes", source, None)


def read_yaml(text: str, source: str = "<yaml>", limits: ReadLimits = DEFAULT_LIMITS) -> ParsedYaml:
    """Parse YAML text within `limits`, keeping the line of every key and item.

    Syntax errors and refusals raise CardDocumentError naming the line; a refusal for size or
    shape is a DocumentTooLarge, which says the limit it met.
    """
    _check_size(text, source, limits)
    loader: _BoundedLoader | None = None
    try:
        loader = _BoundedLoader(
            text, limits, source
        )  # reading starts here: it may refuse a character
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or str(exc)
        raise CardDocumentError(
            [DocumentError("", f"YAML syntax: {problem}", line)], source
        ) from exc
    except yaml.YAMLError as exc:
        raise CardDocumentError([DocumentError("", f"YAML syntax: {exc}")], source) from exc
    finally:
        if loader is not None:
            loader.dispose()
    return ParsedYaml(data, _line_map(node) if node is not None else {})


# --------------------------------------------------------------------------------------------
# JSON: the depth measured in one pass before the parser, which recurses, ever sees it
# --------------------------------------------------------------------------------------------

# The characters that matter to the depth: brackets, and the quotes and backslashes that say
# whether a bracket is inside a string. One character per match, so the search never
# backtracks; the scan below walks the text once, left to right.
_JSON_STRUCTURE = re.compile(r'[\[\]{}"\\]')


def json_depth(text: str, stop_after: int) -> int:
    """How deep the brackets of a JSON text nest (strings skipped), counting no further than
    `stop_after` + 1. Linear in the length of the text whatever it holds: an unterminated
    string runs to the end of the text, where the parser will report it."""
    depth = deepest = 0
    in_string = False
    escaped_until = 0  # the character after a backslash inside a string is never structure
    for match in _JSON_STRUCTURE.finditer(text):
        at = match.start()
        if at < escaped_until:
            continue
        char = text[at]
        if in_string:
            if char == "\\":
                escaped_until = at + 2
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_after:
                    break
        elif char in "]}":
            depth -= 1
    return deepest


def _bounded_int(limits: ReadLimits, source: str) -> Any:
    def parse(digits: str) -> int:
        _check_digits(number_digits(digits), limits, source)
        return int(digits)

    return parse


def _bounded_float(limits: ReadLimits, source: str) -> Any:
    def parse(digits: str) -> float:
        _check_digits(number_digits(digits), limits, source)
        return float(digits)

    return parse


class _DuplicateKey(ValueError):
    pass


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise _DuplicateKey(f"duplicate key {key!r}")
        document[key] = value
    return document


def read_json(text: str, source: str = "<json>", limits: ReadLimits = DEFAULT_LIMITS) -> Any:
    """Parse JSON within `limits` (size, depth, length of numbers), refusing duplicate keys as
    the YAML reader does; CardDocumentError names the line of a syntax error, DocumentTooLarge
    the limit a document met."""
    _check_size(text, source, limits)
    depth = json_depth(text, limits.max_depth)
    if depth > limits.max_depth:
        raise _too_deep(limits, source)
    try:
        return json.loads(
            text,
            parse_int=_bounded_int(limits, source),
            parse_float=_bounded_float(limits, source),
            object_pairs_hook=_reject_duplicate_keys,
        )
    except json.JSONDecodeError as exc:
        raise CardDocumentError(
            [DocumentError("", f"JSON syntax: {exc.msg} (column {exc.colno})", exc.lineno)],
            source,
        ) from exc
    except _DuplicateKey as exc:
        raise CardDocumentError([DocumentError("", f"JSON: {exc}")], source) from exc


# --------------------------------------------------------------------------------------------
# Whole numbers from a query string or a form: ASCII digits within a range, or nothing
# --------------------------------------------------------------------------------------------

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}")


def whole_number(raw: object, *, low: int, high: int) -> int | None:
    """`raw` as an int when it is a plain decimal number (ASCII digits, an optional sign, at
    most 18 digits) between `low` and `high`; None otherwise. The one parser for numeric request
    parameters: `str.isdigit()` accepts "²", which `int()` refuses, and `int()` accepts a
    thousand digits, which no column holds."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if low <= raw <= high else None
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if not _WHOLE_NUMBER.fullmatch(text):
        return None
    number = int(text)
    return number if low <= number <= high else None
