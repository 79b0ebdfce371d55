"""Reads of search: a query of the search language run over the cards the viewer may search,
a page of its results, a card at random; and the pages around search: the syntax page's
reference, the advanced form's choices and the hints shown beside a search (a corrected query,
terms to loosen). Reads Card, CardSet and CardFacet.

What the syntax page and the advanced form list comes from the query language's own table
(catalog/search/keywords.py), so the pages say what the parser reads and nothing else.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet

from catalog.models import Card, CardFacet, CardSet
from catalog.search import QueryTooComplex
from catalog.search.compiler import CompiledQuery, compile_query
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
from catalog.selectors.visibility import (
    Viewer,
    listed_filter,
    listed_sets,
    visible_filter,
    visible_sets,
)

SEARCH_ORDERS = ("name", "level", "treasures", "bonus", "gold", "set")


def card_random(*, viewer: Viewer) -> Card | None:
    """A card at random from the sets listed for the viewer (a different one each visit)."""
    # An offset into the primary key, not ORDER BY RANDOM(), which sorts the whole table.
    cards = Card.objects.filter(card_set__in=listed_sets(viewer=viewer))
    count = cards.count()
    if not count:
        return None
    offset = secrets.randbelow(count)
    return cards.select_related("card_set").order_by("id")[offset : offset + 1].first()


def card_search(*, query: str, viewer: Viewer | None) -> tuple[QuerySet[Card], list[str]]:
    """Cards matching a query of the search language, ordered, with the query's warnings.

    The search covers the sets listed for the viewer, plus any unlisted set the query names
    with `set:` (knowing its code is like having its link). A viewer of None is the site
    itself (commands): every live set."""
    cards, compiled = _compiled_search(query=query, viewer=viewer)
    return cards, compiled.warnings


def _compiled_search(*, query: str, viewer: Viewer | None) -> tuple[QuerySet[Card], CompiledQuery]:
    # Every set, deleted ones too, is read once with what the viewer may do with it: the
    # compiler needs the visible codes and the listed ones, the scope needs all ids.
    live = Q(deleted_at__isnull=True)
    rows = CardSet.everything.annotate(
        is_visible=ExpressionWrapper(
            live & (Q() if viewer is None else visible_filter(viewer)), output_field=BooleanField()
        ),
        is_listed=ExpressionWrapper(
            live & (Q() if viewer is None else listed_filter(viewer)), output_field=BooleanField()
        ),
    ).values_list("pk", "code", "official", "is_visible", "is_listed")
    every, listed_ids, sets = [], set(), {}
    for pk, code, official, is_visible, is_listed in rows:
        every.append(pk)
        if is_visible:
            sets[code] = (pk, official)
        if is_listed:
            listed_ids.add(pk)
    listed_codes = [code for code, (pk, _) in sets.items() if pk in listed_ids]
    compiled = compile_query(query, sets=sets, listed=listed_codes)
    scope = listed_ids | set(compiled.named_sets)
    cards = (
        Card.objects.select_related("card_set")
        .filter(_in_sets(scope, every))
        .filter(compiled.q)
        .order_by(*compiled.order)
    )
    return cards, compiled


def _in_sets(scope: set[int], every: list[int]) -> Q:
    """Cards of the sets in `scope` (`every`: the ids of all sets), written the cheaper way
    round on PostgreSQL. A search usually covers nearly every set (all official and public
    ones), and a list of them all makes PostgreSQL test every row against it and misjudge
    how few rows a filter leaves; the sets left out are then the shorter list, and often
    none. Sets made after `every` was read have higher ids (ids only grow), so the bound keeps
    a set created meanwhile, perhaps a private one, out of the answer as the list would.
    SQLite keeps the list: it would read the bound as a reason to walk the set index
    (measured by bench_search: deck:treasure bonus>=3 counted in 40 ms by the list, 100 ms
    by the bound)."""
    left_out = set(every) - scope
    if connection.vendor != "postgresql" or len(left_out) >= len(scope):
        return Q(card_set_id__in=sorted(scope))
    within = Q(card_set_id__lte=max(every))
    return within & ~Q(card_set_id__in=sorted(left_out)) if left_out else within


@dataclass
class SearchPage:
    """One page of a search: its cards, the total, the query's warnings and the compiler's
    corrections of misspelt terms (for the hints beside the results)."""

    cards: list[Card]
    total: int
    number: int
    per_page: int
    warnings: list[str]
    corrections: list[tuple[Term, str]] = field(default_factory=list)

    @property
    def num_pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def has_next(self) -> bool:
        return self.number * self.per_page < self.total

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def card_search_page(*, query: str, viewer: Viewer, page: int, per_page: int) -> SearchPage:
    """A page of `card_search`. The page's ids are found first, from the narrow indexed
    columns alone; only those rows are then read whole (a search may match 100,000 cards)."""
    cards, compiled = _compiled_search(query=query, viewer=viewer)
    total = cards.count()
    start = (page - 1) * per_page
    ids = list(cards.select_related(None).values_list("id", flat=True)[start : start + per_page])
    rows = Card.objects.select_related("card_set").in_bulk(ids)
    return SearchPage(
        [rows[i] for i in ids], total, page, per_page, compiled.warnings, compiled.corrections
    )


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
