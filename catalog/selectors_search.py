"""Reads for the pages around search: the syntax page's reference, the advanced form's
choices and the hints shown beside a search (a corrected query, terms to loosen).

Everything listed here comes from the query language's own table (catalog/search/keywords.py),
so the pages say what the parser reads and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from catalog.models import CardFacet, CardSet
from catalog.search import QueryTooComplex
from catalog.search.compiler import compile_query
from catalog.search.keywords import (
    KEYWORDS,
    KIND_ALIASES,
    OPERATORS_OF_NUMBERS,
    SHORTCUT_LABELS,
    Keyword,
    accepted_values,
    keyword,
)
from catalog.search.parser import Node, Not, Term, node_text, parse, replace_terms, top_terms
from catalog.selectors import Viewer, card_search, listed_sets, visible_sets

# The loosening hints count the cards of the query without each of its terms in turn: at
# most this many counts, each no dearer than the search itself, and only for a query of at
# most MAX_HINT_WORDS terms in all (a query longer than that is not a player's typo).
MAX_HINT_TERMS = 8
MAX_HINT_WORDS = 24


@dataclass(frozen=True)
class SyntaxValue:
    value: str
    label: str = ""  # what a player calls it, when the value is a code


@dataclass(frozen=True)
class SyntaxRow:
    """One keyword of the syntax page: its spellings, an example that runs, its values."""

    keyword: Keyword
    operators: tuple[str, ...]
    values: list[SyntaxValue]
    aliases_of_values: dict[str, str]
    # For a keyword of free words that names things (`usable:`, `vs:`): those its cards name.
    seen: list[str] = field(default_factory=list)


# The syntax page lists at most this many of the names `usable:` and `vs:` meet in the catalog.
MAX_SEEN_VALUES = 80

# The forms of a query that are not keywords; each example runs on the syntax page.
QUERY_FORMS: list[tuple[str, str, str]] = [
    ('words, "a phrase"', "chicken", "name or rules text contains"),
    ('!"Exact Name"', '!"Net Troll"', "exactly this name"),
    (
        "or, ( ), -",
        "t:monster (tag:undead or tag:shark) -set:munchkin-core lvl>=10",
        "alternatives, groups, negation",
    ),
]


def syntax_reference(*, viewer: Viewer) -> list[SyntaxRow]:
    """Every keyword with its spellings and accepted values; `set:` lists the codes of the
    sets listed for the viewer (an unlisted set is reached by its code, never listed)."""
    sets = listed_sets(viewer=viewer).order_by("code")
    set_names = dict(sets.values_list("code", "name"))
    rows = []
    for entry in KEYWORDS:
        values = accepted_values(entry.values, set_codes=set_names)
        # A label where the value alone says too little: a set's name, a shortcut's sense.
        labels = {"set": set_names, "shortcut": SHORTCUT_LABELS}.get(entry.values, {})
        rows.append(
            SyntaxRow(
                keyword=entry,
                operators=OPERATORS_OF_NUMBERS if entry.column else (":", "="),
                values=[SyntaxValue(value, labels.get(value, "")) for value in values],
                aliases_of_values=dict(KIND_ALIASES) if entry.values == "kind" else {},
                seen=_seen(entry.name, sets) if entry.name in FACETS_SEEN else [],
            )
        )
    return rows


FACETS_SEEN = ("usable", "vs")


def _seen(facet: str, sets: QuerySet[CardSet]) -> list[str]:
    """The names the facet has on cards of the given sets, first MAX_SEEN_VALUES by name."""
    rows = CardFacet.objects.filter(
        facet=facet, card__card_set__in=sets, card__deleted_at__isnull=True
    )
    return list(rows.values_list("value", flat=True).distinct().order_by("value")[:MAX_SEEN_VALUES])


def search_set_choices(*, viewer: Viewer) -> list[tuple[str, str]]:
    """(code, name) of the sets the advanced search offers: those listed for the viewer."""
    return list(listed_sets(viewer=viewer).values_list("code", "name"))


@dataclass(frozen=True)
class QueryHint:
    """A query to try instead: what changed and how many cards it finds."""

    query: str
    total: int
    change: str


@dataclass(frozen=True)
class SearchHints:
    """Hints beside a search: the query with its misspellings corrected, and for a search
    that found nothing, each term whose removal finds something (`untried`: terms past the
    limit, not tried)."""

    corrected: QueryHint | None = None
    loosened: tuple[QueryHint, ...] = ()
    untried: int = 0

    def __bool__(self) -> bool:
        return self.corrected is not None or bool(self.loosened)


def _count(query: str, viewer: Viewer) -> int:
    cards, _ = card_search(query=query, viewer=viewer)
    return cards.count()


def _filters(node: Node) -> bool:
    """Whether leaving the node out could change which cards match (an order does not)."""
    if isinstance(node, Term) and node.key is not None:
        found = keyword(node.key)
        return found is not None and found.name not in ("order", "direction")
    return True


def _words(node: Node) -> int:
    if isinstance(node, Term):
        return 1
    if isinstance(node, Not):
        return _words(node.node)
    return sum(_words(n) for n in node.nodes)


def search_suggestions(
    *,
    query: str,
    viewer: Viewer,
    total: int | None = None,
    corrections: list[tuple[Term, str]] | None = None,
) -> SearchHints:
    """What to try instead of a search: the query with each misspelt keyword or value
    replaced by the nearest one the language has (the compiler's `corrections`, compiled
    here when the search's own are not given), and, when the search finds nothing (`total`,
    counted here when not given), each single term whose removal finds cards, with those
    counts. Bounded: see MAX_HINT_TERMS."""
    if not query.strip():
        return SearchHints()
    try:
        parsed = parse(query)
    except QueryTooComplex:
        return SearchHints()
    corrected = None
    if corrections is None:
        corrections = _corrections(query, viewer)
    if corrections:
        fixed = replace_terms(query, corrections)
        change = ", ".join(f"{term.raw} → {written}" for term, written in corrections)
        corrected = QueryHint(fixed, _count(fixed, viewer), change)
        # What to loosen is worked out on the query as it was probably meant.
        parsed, total = parse(fixed), corrected.total
    if total is None:
        total = _count(query, viewer)
    terms = top_terms(parsed.node)
    if total or len(terms) < 2 or parsed.node is None or _words(parsed.node) > MAX_HINT_WORDS:
        return SearchHints(corrected)
    candidates = [i for i, node in enumerate(terms) if _filters(node)]
    tried, untried = candidates[:MAX_HINT_TERMS], len(candidates[MAX_HINT_TERMS:])
    loosened = []
    for index in tried:
        rest = " ".join(node_text(node) for i, node in enumerate(terms) if i != index)
        found = _count(rest, viewer)
        if found:
            loosened.append(QueryHint(rest, found, node_text(terms[index])))
    return SearchHints(corrected, tuple(loosened), untried)


def _corrections(query: str, viewer: Viewer) -> list[tuple[Term, str]]:
    """The compiler's corrections, suggesting sets as card_search's warnings do: only the
    sets listed for the viewer."""
    visible = visible_sets(viewer=viewer).values_list("pk", "code", "official")
    sets = {code: (pk, official) for pk, code, official in visible}
    listed = listed_sets(viewer=viewer).values_list("code", flat=True)
    return compile_query(query, sets=sets, listed=list(listed)).corrections
