"""Search queries: the parser never raises, and the API never answers 5xx to any `q`."""

import re

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.search.compiler import compile_query
from catalog.search.parser import MAX_QUERY_LENGTH, parse
from tests.fuzz import load_core_catalog

# The slow tier (make test-slow, run by CI): fuzzing at full depth.
pytestmark = pytest.mark.slow

KEYS = [
    "t", "type", "kind", "deck", "set", "tag", "is", "not", "lvl", "level", "treasures",
    "bonus", "gold", "slot", "bad", "order", "direction", "name", "copies", "nosuchkey", "x_y",
]  # fmt: skip
OPERATORS = [":", "=", "<", ">", "<=", ">=", "!="]
VALUES = [
    "monster", "door", "treasure", "munchkin-core", "16", "-3", "1e9", "99999999999999999999",
    "headgear", "big", "undead", "name", "desc", "", "Orc", "élan", "x" * 40,
]  # fmt: skip
WORDS = ["Orc", "Bigfoot", "Elf", "ring", "of", "the", "🐉", "and", "OR", "Or"]


@st.composite
def terms(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["keyed", "quoted", "word", "phrase", "exact"]))
    if kind == "keyed":
        value = draw(st.sampled_from(VALUES) | st.text(max_size=6))
        key = draw(st.sampled_from(KEYS))
        op = draw(st.sampled_from(OPERATORS))
        return f"{key}{op}{value}"
    if kind == "quoted":
        key = draw(st.sampled_from(KEYS))
        return f'{key}:"{draw(st.sampled_from(VALUES + WORDS))}'  # quote left open sometimes
    if kind == "phrase":
        return '"' + " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=3))) + '"'
    if kind == "exact":
        return '!"' + draw(st.sampled_from(WORDS)) + draw(st.sampled_from(['"', ""]))
    return draw(st.sampled_from(WORDS) | st.text(min_size=1, max_size=5))


@st.composite
def grammar_queries(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(
            terms() | st.sampled_from(["(", ")", "-", "or", "OR", "-(", '"', "!", "  "]),
            max_size=12,
        )
    )
    return " ".join(parts) if draw(st.booleans()) else "".join(parts)


QUERIES = grammar_queries() | st.text(max_size=60)

_QUOTED = re.compile(r"'([^']*)'")


def assert_names_a_term(warning: str, query: str) -> None:
    """A warning starts with the term it is about, or quotes a piece of the query."""
    query = query[:MAX_QUERY_LENGTH]
    if warning.startswith(f"the query is longer than {MAX_QUERY_LENGTH}"):
        return
    head, sep, _ = warning.partition(": ")
    if sep and head and head in query:
        return
    quoted = [match.group(1) for match in _QUOTED.finditer(warning)]
    assert any(q and q.lower() in query.lower() for q in quoted), (warning, query)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(query=QUERIES)
def test_the_parser_never_raises_and_names_terms(query: str) -> None:
    parsed = parse(query)
    for warning in parsed.warnings:
        assert_names_a_term(warning, query)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(query=QUERIES)
def test_compiling_never_raises_and_names_terms(query: str) -> None:
    compiled = compile_query(query, sets={"munchkin-core": (1, True)})
    for warning in compiled.warnings:
        assert_names_a_term(warning, query)


def test_an_overlong_query_is_cut_with_a_warning() -> None:
    parsed = parse("orc " * 400)
    assert any("longer than" in w for w in parsed.warnings)


@pytest.fixture
def core_loaded(db: None) -> None:
    """The core set, loaded once per test (every hypothesis example runs in that test's
    transaction, rolled back at its end)."""
    load_core_catalog()


@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=QUERIES)
def test_the_card_api_never_fails_on_a_query(core_loaded: None, client: Client, query: str) -> None:
    response = client.get("/api/cards/", {"q": query})
    assert response.status_code < 500, (query, response.content[:500])
    if response.status_code == 200:
        body = response.json()
        assert body["object"] == "list"
        for warning in body["warnings"]:
            assert_names_a_term(warning, query)
    else:
        body = response.json()
        assert body["object"] == "error" and body["errors"], body
