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
# YAML: strict (no duplicate keys, YAML 1.2 booleans), built straight from the parser's events
# --------------------------------------------------------------------------------------------

_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_Path = tuple[str | int, ...]


class _Events(yaml.SafeLoader):
    """PyYAML's safe reading up to its events, with its resolver and its scalar constructors;
    the graph of nodes it would compose is never made (see _DocumentBuilder)."""

    def __init__(self, stream: str, limits: ReadLimits, source: str) -> None:
        self.limits = limits
        self.source = source
        super().__init__(stream)

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:  # noqa: N803 (PyYAML's name)
        # A `[` or `{` past the depth limit is refused as the scanner meets it: the scanner
        # reads ahead to the end of every open bracket (each may start a key), with work
        # growing with the square of how many are open, before the builder sees an event.
        if self.flow_level >= self.limits.max_depth:
            raise _too_deep(self.limits, self.source, self.get_mark().line + 1)
        super().fetch_flow_collection_start(TokenClass)

    # Typed doors to PyYAML's untyped event methods.
    def event_next(self) -> Any:
        return self.get_event()  # type: ignore[no-untyped-call]

    def event_peek(self) -> Any:
        return self.peek_event()  # type: ignore[no-untyped-call]

    def event_is(self, kind: type[yaml.Event]) -> bool:
        return bool(self.check_event(kind))

    def resolved(self, kind: type[yaml.Node], value: Any, implicit: Any) -> str:
        return str(self.resolve(kind, value, implicit))  # type: ignore[no-untyped-call]


def _construct_int(loader: _Events, node: yaml.ScalarNode) -> Any:
    digits = number_digits(str(node.value))
    _check_digits(digits, loader.limits, loader.source, node.start_mark.line + 1)
    return loader.construct_yaml_int(node)


def _construct_float(loader: _Events, node: yaml.ScalarNode) -> Any:
    digits = number_digits(str(node.value))
    _check_digits(digits, loader.limits, loader.source, node.start_mark.line + 1)
    return loader.construct_yaml_float(node)


_Events.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Events.add_constructor("tag:yaml.org,2002:float", _construct_float)

# YAML 1.2 booleans only: in YAML 1.1 `on`, `off`, `yes` and `no` are booleans, and the scenario
# format uses `on:` as a key.
_Events.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Events.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


@dataclass
class _Anchored:
    """What an anchor stands for: its value, and what each alias of it costs again."""

    value: Any
    values: int
    text_bytes: int


def _error(message: str, mark: Any) -> yaml.MarkedYAMLError:
    return yaml.constructor.ConstructorError(None, None, message, mark)


class _DocumentBuilder:
    """Builds the document's values from the parser's events in one pass, with the line of
    every key and item, and stops as soon as it nests too deep or holds too many values or
    bytes of text (every alias counted at the full size of what it repeats). Holding only
    the values and their lines, never a node per value, it costs a few times the size of what
    it builds, whatever the text's style."""

    def __init__(self, events: _Events) -> None:
        self.events = events
        self.limits = events.limits
        self.source = events.source
        self.lines: dict[_Path, int] = {}
        self._anchors: dict[str, _Anchored] = {}
        self._open_anchors: set[str] = set()
        self._depth = 0
        self._values = 0
        self._text_bytes = 0

    def document(self) -> Any:
        """The stream's one document (None when it holds none), as PyYAML's safe loader
        would build it; more than one document is an error."""
        events = self.events
        events.event_next()  # the stream starts
        value = None
        if not events.event_is(yaml.StreamEndEvent):
            events.event_next()  # the document starts
            value = self.value(())
            events.event_next()  # the document ends
        if not events.event_is(yaml.StreamEndEvent):
            extra = events.event_next()
            raise _error("expected a single document, but found another one", extra.start_mark)
        events.event_next()
        return value

    def value(self, path: _Path | None) -> Any:
        """The next value; its line is kept under `path` (None: a key, whose line its map
        keeps)."""
        event = self.events.event_peek()
        line = event.start_mark.line + 1
        if path is not None:
            self.lines.setdefault(path, line)
        if isinstance(event, yaml.AliasEvent):
            self.events.event_next()
            return self._alias(event, line)
        self._depth += 1
        if self._depth > self.limits.max_depth:
            raise _too_deep(self.limits, self.source, line)
        anchor = event.anchor
        if anchor is not None:
            if anchor in self._anchors:
                raise _error(f"the anchor &{anchor} is defined twice", event.start_mark)
            self._open_anchors.add(anchor)
        before = (self._values, self._text_bytes)
        text_bytes = 0
        if isinstance(event, yaml.ScalarEvent):
            self.events.event_next()
            value = self._scalar(event)
            text_bytes = len(event.value.encode("utf-8", "surrogatepass"))
        elif isinstance(event, yaml.SequenceStartEvent):
            value = self._sequence(path or ())
        else:
            value = self._mapping(path or ())
        self._depth -= 1
        self._count(1, text_bytes, line)
        if anchor is not None:
            self._open_anchors.discard(anchor)
            self._anchors[anchor] = _Anchored(
                value, self._values - before[0], self._text_bytes - before[1]
            )
        return value

    def _alias(self, event: Any, line: int) -> Any:
        anchor = event.anchor
        if anchor in self._open_anchors:
            # A value that holds itself has no end: nothing downstream could walk it.
            raise _too_large(f"the alias *{anchor} is inside its own anchor", self.source, line)
        anchored = self._anchors.get(anchor)
        if anchored is None:
            raise _error(f"found undefined alias {anchor!r}", event.start_mark)
        # An alias costs what it repeats: that is what every reader after this one walks.
        self._count(anchored.values, anchored.text_bytes, line)
        return anchored.value

    def _tag(self, event: Any, kind: type[yaml.Node], value: Any) -> str:
        if event.tag is None or event.tag == "!":
            return self.events.resolved(kind, value, event.implicit)
        return str(event.tag)

    def _scalar(self, event: Any) -> Any:
        tag = self._tag(event, yaml.ScalarNode, event.value)
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        constructors = self.events.yaml_constructors
        # An unknown tag (or a merge key, `<<`) reaches PyYAML's refusal of undefined tags.
        construct = constructors.get(tag) if tag not in (_MAP_TAG, _SEQ_TAG) else None
        return (construct or constructors[None])(self.events, node)

    def _collection_tag(self, event: Any, kind: type[yaml.Node], expected: str) -> None:
        tag = self._tag(event, kind, None)
        if tag != expected:
            raise _error(
                f"the tag {tag!r} is not read here: write a plain list or map", event.start_mark
            )

    def _sequence(self, path: _Path) -> list[Any]:
        start = self.events.event_next()
        self._collection_tag(start, yaml.SequenceNode, _SEQ_TAG)
        items: list[Any] = []
        while not self.events.event_is(yaml.SequenceEndEvent):
            items.append(self.value((*path, len(items))))
        self.events.event_next()
        return items

    def _mapping(self, path: _Path) -> dict[Any, Any]:
        start = self.events.event_next()
        self._collection_tag(start, yaml.MappingNode, _MAP_TAG)
        mapping: dict[Any, Any] = {}
        first_lines: dict[Any, int] = {}
        while not self.events.event_is(yaml.MappingEndEvent):
            key_event = self.events.event_peek()
            key_line = key_event.start_mark.line + 1
            if isinstance(key_event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
                raise self._not_a_key(key_event, isinstance(key_event, yaml.SequenceStartEvent))
            key = self.value(None)
            if isinstance(key, list | dict):  # an alias of a list or a map
                raise self._not_a_key(key_event, isinstance(key, list))
            if key in first_lines:
                raise _error(
                    f"duplicate key {key!r} (first at line {first_lines[key]})",
                    key_event.start_mark,
                )
            first_lines[key] = key_line
            raw = key_event.value if isinstance(key_event, yaml.ScalarEvent) else str(key)
            child = (*path, raw)
            self.lines[child] = key_line
            mapping[key] = self.value(child)
        self.events.event_next()
        return mapping

    @staticmethod
    def _not_a_key(event: Any, is_list: bool) -> yaml.MarkedYAMLError:
        # `? [1]` or `{[1]: 2}`: YAML allows it, but no document of the site has such a key and
        # nothing downstream could name it in an error.
        shape = "list" if is_list else "map"
        return _error(f"a key must be a word or a number, not a {shape}", event.start_mark)

    def _count(self, values: int, text_bytes: int, line: int) -> None:
        self._values += values
        self._text_bytes += text_bytes
        if self._values > self.limits.max_nodes:
            raise _too_large(
                f"the document holds more than {self.limits.max_nodes:,} values once its "
                "aliases (*name) are expanded",
                self.source,
                line,
            )
        if self._text_bytes > self.limits.expanded_bytes:
            raise _too_large(
                f"the document holds more than {self.limits.expanded_bytes:,} bytes of "
                "text once its aliases (*name) are expanded",
                self.source,
                line,
            )


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
    events: _Events | None = None
    try:
        events = _Events(text, limits, source)  # reading starts here: it may refuse a character
        builder = _DocumentBuilder(events)
        data = builder.document()
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
        if events is not None:
            events.dispose()
    return ParsedYaml(data, builder.lines)


# --------------------------------------------------------------------------------------------
# JSON: the depth measured in one pass before the parser, which recurses, ever sees it
# --------------------------------------------------------------------------------------------

# The characters that matter to the depth: brackets, and the quote that opens a string.
_JSON_STRUCTURE = re.compile(r'[\[\]{}"]')
# The rest of a string after its opening quote, up to and with its closing quote (or the end of
# the text, when it is never closed). Every quantifier is possessive and the two kinds of run
# it takes (plain characters, a backslash and the character after it) start differently, so
# each character is read once and nothing is ever tried again: linear, and run in C.
_JSON_STRING_REST = re.compile(r'[^"\\]*+(?:\\.[^"\\]*+)*+"?', re.DOTALL)


def json_depth(text: str, stop_after: int) -> int:
    """How deep the brackets of a JSON text nest (strings skipped), counting no further than
    `stop_after` + 1. Linear in the length of the text whatever it holds: an unterminated
    string runs to the end of the text, where the parser will report it."""
    depth = deepest = 0
    position = 0
    while (found := _JSON_STRUCTURE.search(text, position)) is not None:
        char = found.group()
        position = found.end()
        if char == '"':
            rest = _JSON_STRING_REST.match(text, position)
            position = rest.end() if rest is not None else len(text)
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_after:
                    break
        else:
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
