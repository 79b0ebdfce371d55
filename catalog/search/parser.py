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
    # Where `raw` starts in the query read (after any cut), to correct the term in place.
    start: int = field(default=-1, compare=False)


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
        start, position = position, match.end()
        raw = match.group(0)
        if match.group("space"):
            continue
        if match.group("lparen"):
            tokens.append(_Token("(", raw))
        elif match.group("rparen"):
            tokens.append(_Token(")", raw))
        elif match.group("exact") is not None:
            text = match.group("exact_text")
            tokens.append(
                _Token("term", raw, Term("name", ":", text, exact=True, raw=raw, start=start))
            )
        elif match.group("keyed") is not None:
            value = match.group("qvalue")
            if value is None:
                value = match.group("value") or ""
            key = match.group("key").lower()
            term = Term(key, match.group("op"), value, raw=raw, start=start)
            tokens.append(_Token("term", raw, term))
        elif match.group("phrase") is not None:
            text = match.group("phrase_text")
            tokens.append(_Token("term", raw, Term(None, ":", text, raw=raw, start=start)))
        elif match.group("minus"):
            tokens.append(_Token("-", raw))
        elif raw.lower() == "or":
            tokens.append(_Token("or", raw))
        elif raw == "-":
            warnings.append("'-' with nothing after it: ignored")
        else:
            tokens.append(_Token("term", raw, Term(None, ":", raw, raw=raw, start=start)))
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


def read_query(query: str) -> str:
    """The part of a query the parser reads: the first MAX_QUERY_LENGTH characters."""
    return query[:MAX_QUERY_LENGTH]


def parse(query: str) -> Parsed:
    """Parse a query. Over-long queries are cut, with a warning; a query nesting deeper than
    MAX_NESTING raises QueryTooComplex."""
    warnings: list[str] = []
    if len(query) > MAX_QUERY_LENGTH:
        warnings.append(f"the query is longer than {MAX_QUERY_LENGTH} characters: cut there")
        query = read_query(query)
    tokens = tokenize(query, warnings)
    node = _Parser(tokens, warnings).parse()
    return Parsed(node, warnings)


def replace_terms(query: str, replacements: list[tuple[Term, str]]) -> str:
    """The query read (see read_query) with each term's text replaced where it stands."""
    text = read_query(query)
    for term, written in sorted(replacements, key=lambda pair: pair[0].start, reverse=True):
        if term.start < 0 or text[term.start : term.start + len(term.raw)] != term.raw:
            continue  # a term built by hand, not read from this query
        text = text[: term.start] + written + text[term.start + len(term.raw) :]
    return text


def node_text(node: Node) -> str:
    """A node written back as a query that parses to the same node (groups in parentheses,
    phrases closed even where the query left them open)."""
    if isinstance(node, Term):
        return _term_text(node)
    if isinstance(node, Not):
        inner = node.node
        return "-" + (f"({node_text(inner)})" if isinstance(inner, And | Or) else node_text(inner))
    if isinstance(node, And):
        return " ".join(
            f"({node_text(n)})" if isinstance(n, And | Or) else node_text(n) for n in node.nodes
        )
    return " or ".join(
        f"({node_text(n)})" if isinstance(n, Or) else node_text(n) for n in node.nodes
    )


def _term_text(term: Term) -> str:
    if term.exact:
        return f'!"{term.value}"'
    if '"' in term.value:  # only an unquoted word holds one, and reads back as written
        return term.raw
    plain = term.value and not re.search(r'[\s()"]', term.value)
    if term.key is None:
        # A bare word the tokenizer read as one needs no quotes; a phrase keeps them.
        return term.value if plain and not term.raw.startswith('"') else f'"{term.value}"'
    return f"{term.key}{term.op}" + (term.value if plain else f'"{term.value}"')


def top_terms(node: Node | None) -> list[Node]:
    """The parts of a query that must all match: the nodes of its top-level AND."""
    if node is None:
        return []
    return list(node.nodes) if isinstance(node, And) else [node]
