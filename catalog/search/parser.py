"""A forgiving recursive-descent parser for the card query language.

Grammar (terms next to each other are ANDed; `or` in any case joins alternatives; parentheses
group; a leading `-` negates a term or a group):

    query  := either*
    either := all ("or" all)*
    all    := unary+
    unary  := "-" unary | "(" either ")" | term
    term   := key op value | !"exact name" | "phrase" | word

Nothing here raises on bad words: a term the parser cannot read becomes a warning naming it,
and the rest of the query still runs. Only a query beyond the parser's limit of nesting is
refused (QueryTooComplex): half of such a query would match more than it says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_QUERY_LENGTH = 1000
# Groups and negations inside each other: real queries use two or three.
MAX_NESTING = 20

OPERATORS = ("<=", ">=", "!=", ":", "=", "<", ">")


class QueryTooComplex(ValueError):
    """A query nesting its groups and negations deeper than MAX_NESTING."""

    def __init__(self) -> None:
        super().__init__(
            f"the query nests groups '(' and negations '-' more than {MAX_NESTING} deep"
        )


@dataclass(frozen=True)
class Term:
    key: str | None  # None: a bare word or phrase
    op: str
    value: str
    exact: bool = False  # !"Exact Name"
    raw: str = ""


@dataclass(frozen=True)
class Not:
    node: Node


@dataclass(frozen=True)
class And:
    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    nodes: tuple[Node, ...]


Node = Term | Not | And | Or


@dataclass
class Parsed:
    node: Node | None
    warnings: list[str] = field(default_factory=list)


_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<lparen>\()
  | (?P<rparen>\))
  | (?P<exact>!"(?P<exact_text>[^"]*)"?)
  | (?P<keyed>(?P<key>[A-Za-z_]+)(?P<op><=|>=|!=|:|=|<|>)
        (?:"(?P<qvalue>[^"]*)"?|(?P<value>[^\s()]*)))
  | (?P<phrase>"(?P<phrase_text>[^"]*)"?)
  | (?P<minus>-(?=[^\s]))
  | (?P<word>[^\s()"]+)
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    term: Term | None = None


def tokenize(query: str, warnings: list[str]) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    while position < len(query):
        match = _TOKEN.match(query, position)
        if match is None:  # pragma: no cover - every character matches some branch
            warnings.append(f"could not read {query[position:]!r}")
            break
        position = match.end()
        kind = match.lastgroup
        raw = match.group(0)
        if match.group("space"):
            continue
        if match.group("lparen"):
            tokens.append(_Token("(", raw))
        elif match.group("rparen"):
            tokens.append(_Token(")", raw))
        elif match.group("exact") is not None:
            text = match.group("exact_text")
            tokens.append(_Token("term", raw, Term("name", ":", text, exact=True, raw=raw)))
        elif match.group("keyed") is not None:
            value = match.group("qvalue")
            if value is None:
                value = match.group("value") or ""
            term = Term(match.group("key").lower(), match.group("op"), value, raw=raw)
            tokens.append(_Token("term", raw, term))
        elif match.group("phrase") is not None:
            text = match.group("phrase_text")
            tokens.append(_Token("term", raw, Term(None, ":", text, raw=raw)))
        elif match.group("minus"):
            tokens.append(_Token("-", raw))
        elif raw.lower() == "or":
            tokens.append(_Token("or", raw))
        elif raw == "-":
            warnings.append("'-' with nothing after it: ignored")
        else:
            tokens.append(_Token("term", raw, Term(None, ":", raw, raw=raw)))
        del kind
    return tokens


class _Parser:
    def __init__(self, tokens: list[_Token], warnings: list[str]) -> None:
        self.tokens = tokens
        self.index = 0
        self.warnings = warnings
        self.depth = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self) -> Node | None:
        nodes: list[Node] = []
        while self.peek() is not None:
            token = self.peek()
            assert token is not None
            if token.kind == ")":
                self.take()
                self.warnings.append("a ')' closes no '(': ignored")
                continue
            node = self.either()
            if node is not None:
                nodes.append(node)
        return _and(nodes)

    def either(self) -> Node | None:
        options: list[Node] = []
        first = self.all()
        if first is not None:
            options.append(first)
        while (token := self.peek()) is not None and token.kind == "or":
            self.take()
            following = self.all()
            if following is None:
                self.warnings.append("'or' with nothing after it: ignored")
                break
            options.append(following)
        if not options:
            return None
        return options[0] if len(options) == 1 else Or(tuple(options))

    def all(self) -> Node | None:
        nodes: list[Node] = []
        while (token := self.peek()) is not None and token.kind not in ("or", ")"):
            node = self.unary()
            if node is not None:
                nodes.append(node)
        return _and(nodes)

    def unary(self) -> Node | None:
        token = self.take()
        if token.kind in ("-", "("):
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise QueryTooComplex
            try:
                return self._inner(token)
            finally:
                self.depth -= 1
        assert token.term is not None
        return token.term

    def _inner(self, token: _Token) -> Node | None:
        if token.kind == "-":
            following = self.peek()
            if following is None or following.kind in ("or", ")"):
                self.warnings.append("'-' with nothing after it: ignored")
                return None
            inner = self.unary()
            return Not(inner) if inner is not None else None
        if token.kind == "(":
            inner = self.either()
            closing = self.peek()
            if closing is not None and closing.kind == ")":
                self.take()
            else:
                self.warnings.append("a '(' is never closed: closed at the end")
            return inner
        raise AssertionError(token.kind)


def _and(nodes: list[Node]) -> Node | None:
    if not nodes:
        return None
    return nodes[0] if len(nodes) == 1 else And(tuple(nodes))


def parse(query: str) -> Parsed:
    """Parse a query. Over-long queries are cut, with a warning; a query nesting deeper than
    MAX_NESTING raises QueryTooComplex."""
    warnings: list[str] = []
    if len(query) > MAX_QUERY_LENGTH:
        warnings.append(f"the query is longer than {MAX_QUERY_LENGTH} characters: cut there")
        query = query[:MAX_QUERY_LENGTH]
    tokens = tokenize(query, warnings)
    node = _Parser(tokens, warnings).parse()
    return Parsed(node, warnings)
