"""Compile a parsed query into one Django Q, plus ordering and warnings.

Every term the compiler cannot use (an unknown keyword, kind, slot, tag or number) is left out
of the query with a warning that names it and, where it can, the nearest valid word; such a
nearest word is also kept as a correction (`CompiledQuery.corrections`), from which the search
page offers the query as it was probably meant.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field

from django.db.models import F, OrderBy, Q

from catalog.models import CardFacet, CardSet, CardTag
from catalog.search.facets import BAD_STUFF_KINDS
from catalog.search.fulltext import text_match
from catalog.search.keywords import (
    DECKS,
    DIRECTIONS,
    KIND_ALIASES,
    NUMBER_KEYWORDS,
    ORDERS,
    SHORTCUTS,
    SLOTS,
    TAGS,
    Keyword,
    keyword,
    nearest_keyword,
    quote,
    unknown_keyword,
)
from catalog.search.parser import And, Node, Not, Term, parse
from validator.checks import check_version
from validator.engine import KINDS, nearest_word, whole_number
from validator.models import CardCheck

# Numbers in a query compare with stored stats, which the effect language keeps within a
# million; a wider range here still fits every database column and never overflows.
NUMBER_RANGE = 1_000_000_000
STAT_COLUMNS = frozenset(keyword.column for keyword in NUMBER_KEYWORDS)
LOOKUPS = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def _order_by(name: str, *, descending: bool) -> OrderBy:
    # Only the stats can be missing; NULLS LAST on a column that is never null would keep
    # SQLite from reading the order straight off its index.
    nulls_last = True if name in STAT_COLUMNS else None
    column = F(name)
    return column.desc(nulls_last=nulls_last) if descending else column.asc(nulls_last=nulls_last)


@dataclass
class CompiledQuery:
    q: Q
    order: list[OrderBy] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    named_sets: list[int] = field(default_factory=list)  # ids of the sets `set:` names
    # (term, what to write instead) for each term whose keyword or value had a near match
    corrections: list[tuple[Term, str]] = field(default_factory=list)


def _unknown(what: str, value: str, valid: Iterable[str], hint: str | None) -> str:
    if hint:
        return f"unknown {what} {value!r}; did you mean {hint!r}?"
    options = list(valid)
    return f"unknown {what} {value!r}" + (f" (known: {', '.join(options)})" if options else "")


class _Compiler:
    def __init__(self, sets: Mapping[str, tuple[int, bool]], listed: Collection[str]) -> None:
        self.sets = sets
        # A warning names only the sets listed for the viewer: an unlisted set is reached by
        # its code, never suggested, and a code `sets` does not hold is unknown like any other.
        self.listed_codes = sorted(code for code in listed if code in sets)
        self.warnings: list[str] = []
        self.corrections: list[tuple[Term, str]] = []
        self.order: list[str] = []
        self.descending = False
        self.named_sets: list[int] = []

    def node(self, node: Node) -> Q | None:
        if isinstance(node, Term):
            return self.term(node)
        if isinstance(node, Not):
            inner = self.node(node.node)
            return ~inner if inner is not None else None
        parts = [q for q in (self.node(n) for n in node.nodes) if q is not None]
        if not parts:
            return None
        combined = parts[0]
        for part in parts[1:]:
            combined = combined & part if isinstance(node, And) else combined | part
        return combined

    def term(self, term: Term) -> Q | None:
        key, value = term.key, term.value.strip()
        if key is None:
            if not value:
                return None
            return text_match(value, column="both")
        found = keyword(key)
        if found is None:
            self.warnings.append(unknown_keyword(key))
            nearest = nearest_keyword(key)
            if nearest and value:
                self.corrections.append((term, f"{nearest}{term.op}{quote(value)}"))
            return None
        if term.op not in (":", "=") and not found.column:
            self.warnings.append(f"{term.raw}: {key} takes ':' or '=', not {term.op!r}")
            return None
        if not value:
            self.warnings.append(f"{term.raw}: no value given")
            return None
        return self.handlers()[found.name](term, found, value)

    def unknown(self, term: Term, what: str, value: str, valid: Iterable[str]) -> None:
        """Warn of a value the keyword does not take, naming the nearest one it does."""
        options = list(valid)
        hint = nearest_word(value.lower(), options)
        self.warnings.append(f"{term.raw}: " + _unknown(what, value, options, hint))
        if hint:
            self.corrections.append((term, f"{term.key}{term.op}{quote(hint)}"))

    def handlers(self) -> dict[str, Callable[[Term, Keyword, str], Q | None]]:
        return {
            "name": self.name,
            "o": self.text,
            "t": self.kind,
            "deck": self.deck,
            "set": self.set,
            "tag": self.tag,
            "is": self.shortcut,
            "not": self.shortcut,
            **{keyword.name: self.number for keyword in NUMBER_KEYWORDS},
            "slot": self.slot,
            "usable": self.facet,
            "vs": self.facet,
            "bad": self.facet,
            "author": self.author,
            "order": self.order_by,
            "direction": self.direction,
        }

    def name(self, term: Term, keyword: Keyword, value: str) -> Q:
        if term.exact:  # the word index narrows the rows the exact comparison reads
            return text_match(value, column="name") & Q(name__iexact=value)
        return text_match(value, column="name")

    def text(self, term: Term, keyword: Keyword, value: str) -> Q:
        return text_match(value, column="text")

    def kind(self, term: Term, keyword: Keyword, value: str) -> Q | None:
        kind = value.lower().replace("-", "_")
        kind = KIND_ALIASES.get(kind, kind)
        if kind not in KINDS:
            self.unknown(term, "kind", value, (*KINDS, *KIND_ALIASES))
            return None
        return Q(kind=kind)

    def deck(self, term: Term, keyword: Keyword, value: str) -> Q | None:
        if value.lower() not in DECKS:
            self.unknown(term, "deck", value, DECKS)
            return None
        return Q(deck=value.lower())

    def set(self, term: Term, keyword: Keyword, value: str) -> Q | None:
        code = value.lower()
        if code not in self.sets:
            self.unknown(term, "set", value, self.listed_codes)
            return None
        self.named_sets.append(self.sets[code][0])
        return Q(card_set_id=self.sets[code][0])

    def tag(self, term: Term, keyword: Keyword, value: str) -> Q | None:
        tag = value.lower().replace("_", "-")
        if tag not in TAGS:
            self.unknown(term, "tag", value, TAGS)
            return None
        return Q(pk__in=CardTag.objects.filter(tag=tag).values("card_id"))

    def shortcut(self, term: Term, keyword: Keyword, value: str) -> Q | None:
        word = value.lower().replace("-", "").replace("_", "")
        checked = CardCheck.objects.filter(check_version=check_version()).values("document_hash")
        custom = [set_id for set_id, official in self.sets.values() if not official]
        official = [set_id for set_id, official in self.sets.values() if official]
        q = {
            "big": Q(big=True),
            "custom": Q(card_set_id__in=custom),
            "official": Q(card_set_id__in=official),
            "oneshot": Q(kind="one_shot"),
            "encoded": Q(encoding="full"),
            "partial": Q(encoding="partial"),
            "textonly": Q(encoding="text_only"),
            "valid": Q(document_hash__in=checked.filter(status__in=("pass", "warn"))),
            "invalid": Q(document_hash__in=checked.filter(status="fail")),
            # A card whose provenance records a question no source settles (set files leave
            # an empty list out, so the key is there only when a dispute is).
            "disputed": Q(provenance__has_key="disputed"),
            # A card with a stat guessed from its name: `inferred` is the one level a stat's
            # own confidence takes (FIELD_CONFIDENCES), and an empty mapping is left out.
            "inferred": Q(provenance__has_key="field_confidence"),
        }.get(word)
        if q is None:
            self.unknown(term, keyword.name, value, SHORTCUTS)
            return None
        if keyword.name == "not":  # a positive list of sets reads an index; NOT IN would scan
            q = {"custom": Q(card_set_id__in=official), "official": Q(card_set_id__in=custom)}.get(
                word, ~q
            )
        return q

    def number(self, term: Term, keyword: Keyword, value: str) -> Q | None:
        column = keyword.column
        number = whole_number(value, low=-NUMBER_RANGE, high=NUMBER_RANGE)
        if number is None:
            self.warnings.append(
                f"{term.raw}: {value!r} is not a whole number from "
                f"{-NUMBER_RANGE:,} to {NUMBER_RANGE:,}"
            )
            return None
        if term.op == "!=":
            return ~Q(**{column: number}) & Q(**{f"{column}__isnull": False})
        return Q(**{f"{column}__{LOOKUPS[term.op]}": number})

    def slot(self, term: Term, keyword: Keyword, value: str) -> Q | None:
        slot = value.lower().replace("-", "_").replace(" ", "_")
        if slot not in SLOTS:
            self.unknown(term, "slot", value, SLOTS)
            return None
        return Q(slot=slot)

    def facet(self, term: Term, keyword: Keyword, value: str) -> Q | None:
        facet = keyword.name
        wanted = value.lower()
        if facet == "bad" and wanted not in BAD_STUFF_KINDS:
            self.unknown(term, "Bad Stuff kind", value, BAD_STUFF_KINDS)
            return None
        # "vs:elves" and "usable:elves" mean the Elf: try the singular too.
        values = {wanted, wanted.rstrip("s"), wanted.removesuffix("ves") + "f"}
        rows = CardFacet.objects.filter(facet=facet, value__in=values)
        return Q(pk__in=rows.values("card_id"))

    def author(self, term: Term, keyword: Keyword, value: str) -> Q:
        owned = CardSet.objects.filter(owner__username__iexact=value).values("pk")
        return Q(card_set_id__in=owned)

    def order_by(self, term: Term, keyword: Keyword, value: str) -> None:
        fields = ORDERS.get(value.lower())
        if fields is None:
            self.unknown(term, "order", value, ORDERS)
            return None
        self.order = list(fields)
        return None

    def direction(self, term: Term, keyword: Keyword, value: str) -> None:
        if value.lower() not in DIRECTIONS:
            self.unknown(term, "direction", value, DIRECTIONS)
            return None
        self.descending = value.lower() == "desc"
        return None


def compile_query(
    query: str, *, sets: Mapping[str, tuple[int, bool]], listed: Collection[str] = ()
) -> CompiledQuery:
    """Parse and compile a query; never raises.

    `sets` maps the codes `set:` may name to (set id, official): filters compare the card's
    own set id, so no query joins the set table. `listed` are the codes a warning may suggest
    or list (the sets listed for the viewer); by default none.
    """
    parsed = parse(query)
    compiler = _Compiler(sets, listed)
    q = compiler.node(parsed.node) if parsed.node is not None else None
    if q is None and compiler.warnings:
        q = Q(pk__in=[])  # nothing usable was asked: show the warnings, not every card
    # Ties are broken by id, not set code: the name index then serves the order with no join.
    order = [_order_by(f, descending=compiler.descending) for f in compiler.order]
    order += [_order_by(f, descending=False) for f in ("name", "id")]
    return CompiledQuery(
        q if q is not None else Q(),
        order,
        parsed.warnings + compiler.warnings,
        compiler.named_sets,
        compiler.corrections,
    )
