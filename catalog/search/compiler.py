"""Compile a parsed query into one Django Q, plus ordering and warnings.

Every term the compiler cannot use (an unknown keyword, kind, slot, tag or number) is left out
of the query with a warning that names it and, where it can, the nearest valid word.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field

from django.db.models import F, OrderBy, Q

from catalog.models import CardFacet, CardSet, CardTag
from catalog.search.facets import BAD_STUFF_KINDS
from catalog.search.fulltext import text_match
from catalog.search.parser import And, Node, Not, Term, parse
from validator.checks import check_version
from validator.engine import KINDS, Slot, nearest_word, whole_number
from validator.engine import CardTag as TagVocabulary
from validator.models import CardCheck

TAGS = (*typing.get_args(TagVocabulary), "big")
SLOTS = typing.get_args(Slot)
ORDERS = {
    "name": ("name",),
    "level": ("level",),
    "treasures": ("treasures",),
    "bonus": ("bonus",),
    "gold": ("gold",),
    "set": ("card_set__code",),
}
# Numbers in a query compare with stored stats, which the effect language keeps within a
# million; a wider range here still fits every database column and never overflows.
NUMBER_RANGE = 1_000_000_000

NUMBERS = {
    "lvl": "level",
    "level": "level",
    "tr": "treasures",
    "treasures": "treasures",
    "bonus": "bonus",
    "gold": "gold",
}
LOOKUPS = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
SHORTCUTS = (
    "big",
    "custom",
    "official",
    "oneshot",
    "encoded",
    "partial",
    "textonly",
    "valid",
    "invalid",
)


def _order_by(name: str, *, descending: bool) -> OrderBy:
    # Only the stats can be missing; NULLS LAST on a column that is never null would keep
    # SQLite from reading the order straight off its index.
    nulls_last = True if name in NUMBERS.values() else None
    column = F(name)
    return column.desc(nulls_last=nulls_last) if descending else column.asc(nulls_last=nulls_last)


@dataclass
class CompiledQuery:
    q: Q
    order: list[OrderBy] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    named_sets: list[int] = field(default_factory=list)  # ids of the sets `set:` names


def _unknown(what: str, value: str, valid: Iterable[str]) -> str:
    options = list(valid)
    hint = nearest_word(value, options)
    if hint:
        return f"unknown {what} {value!r}; did you mean {hint!r}?"
    return f"unknown {what} {value!r}" + (f" (known: {', '.join(options)})" if options else "")


class _Compiler:
    def __init__(self, sets: Mapping[str, tuple[int, bool]], listed: Collection[str]) -> None:
        self.sets = sets
        # A warning names only the sets listed for the viewer: an unlisted set is reached by
        # its code, never suggested, and a code `sets` does not hold is unknown like any other.
        self.listed_codes = sorted(code for code in listed if code in sets)
        self.warnings: list[str] = []
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
        handler = self.handlers().get(key)
        if handler is None:
            self.warnings.append(f"{term.raw}: " + _unknown("keyword", key, self.keywords()))
            return None
        if term.op not in (":", "=") and key not in NUMBERS:
            self.warnings.append(f"{term.raw}: {key} takes ':' or '=', not {term.op!r}")
            return None
        if not value:
            self.warnings.append(f"{term.raw}: no value given")
            return None
        return handler(term, value)

    def keywords(self) -> list[str]:
        return sorted(self.handlers())

    def handlers(self) -> dict[str, Callable[[Term, str], Q | None]]:
        return {
            "name": self.name,
            "o": self.text,
            "text": self.text,
            "t": self.kind,
            "kind": self.kind,
            "deck": self.deck,
            "set": self.set,
            "s": self.set,
            "tag": self.tag,
            "is": self.shortcut,
            "not": self.shortcut,
            **{key: self.number for key in NUMBERS},
            "slot": self.slot,
            "usable": self.facet,
            "vs": self.facet,
            "bad": self.facet,
            "author": self.author,
            "order": self.order_by,
            "direction": self.direction,
        }

    def name(self, term: Term, value: str) -> Q:
        if term.exact:  # the word index narrows the rows the exact comparison reads
            return text_match(value, column="name") & Q(name__iexact=value)
        return text_match(value, column="name")

    def text(self, term: Term, value: str) -> Q:
        return text_match(value, column="text")

    def kind(self, term: Term, value: str) -> Q | None:
        kind = value.lower().replace("-", "_")
        aliases = {"oneshot": "one_shot", "enhancer": "monster_enhancer", "gual": "go_up_a_level"}
        kind = aliases.get(kind, kind)
        if kind not in KINDS:
            self.warnings.append(f"{term.raw}: " + _unknown("kind", value, KINDS))
            return None
        return Q(kind=kind)

    def deck(self, term: Term, value: str) -> Q | None:
        if value.lower() not in ("door", "treasure"):
            self.warnings.append(f"{term.raw}: " + _unknown("deck", value, ("door", "treasure")))
            return None
        return Q(deck=value.lower())

    def set(self, term: Term, value: str) -> Q | None:
        code = value.lower()
        if code not in self.sets:
            self.warnings.append(f"{term.raw}: " + _unknown("set", value, self.listed_codes))
            return None
        self.named_sets.append(self.sets[code][0])
        return Q(card_set_id=self.sets[code][0])

    def tag(self, term: Term, value: str) -> Q | None:
        tag = value.lower().replace("_", "-")
        if tag not in TAGS:
            self.warnings.append(f"{term.raw}: " + _unknown("tag", value, TAGS))
            return None
        return Q(pk__in=CardTag.objects.filter(tag=tag).values("card_id"))

    def shortcut(self, term: Term, value: str) -> Q | None:
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
        }.get(word)
        if q is None:
            self.warnings.append(f"{term.raw}: " + _unknown(term.key or "is", value, SHORTCUTS))
            return None
        if term.key == "not":  # a positive list of sets reads an index; NOT IN would scan
            q = {"custom": Q(card_set_id__in=official), "official": Q(card_set_id__in=custom)}.get(
                word, ~q
            )
        return q

    def number(self, term: Term, value: str) -> Q | None:
        column = NUMBERS[term.key or ""]
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

    def slot(self, term: Term, value: str) -> Q | None:
        slot = value.lower().replace("-", "_").replace(" ", "_")
        if slot not in SLOTS:
            self.warnings.append(f"{term.raw}: " + _unknown("slot", value, SLOTS))
            return None
        return Q(slot=slot)

    def facet(self, term: Term, value: str) -> Q | None:
        facet = term.key or ""
        wanted = value.lower()
        if facet == "bad" and wanted not in BAD_STUFF_KINDS:
            self.warnings.append(
                f"{term.raw}: " + _unknown("Bad Stuff kind", value, BAD_STUFF_KINDS)
            )
            return None
        # "vs:elves" and "usable:elves" mean the Elf: try the singular too.
        values = {wanted, wanted.rstrip("s"), wanted.removesuffix("ves") + "f"}
        rows = CardFacet.objects.filter(facet=facet, value__in=values)
        return Q(pk__in=rows.values("card_id"))

    def author(self, term: Term, value: str) -> Q:
        owned = CardSet.objects.filter(owner__username__iexact=value).values("pk")
        return Q(card_set_id__in=owned)

    def order_by(self, term: Term, value: str) -> None:
        fields = ORDERS.get(value.lower())
        if fields is None:
            self.warnings.append(f"{term.raw}: " + _unknown("order", value, ORDERS))
            return None
        self.order = list(fields)
        return None

    def direction(self, term: Term, value: str) -> None:
        if value.lower() not in ("asc", "desc"):
            self.warnings.append(f"{term.raw}: " + _unknown("direction", value, ("asc", "desc")))
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
    )
