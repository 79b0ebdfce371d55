"""Write a query of the search language from fields, as the advanced search form fills them.

A pure function of its input: the form checks the values, this only writes them down, with
the spellings the syntax page teaches (`t:`, `lvl>=3`...), so the query it shows is one a
player could have typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from catalog.search.keywords import quote


@dataclass(frozen=True)
class Criteria:
    """What the advanced form asks for. Empty fields ask for nothing. `ranges` maps a number
    keyword (`lvl`, `tr`, `bonus`, `gold`) to its (lowest, highest), either open (None)."""

    name: str = ""
    text: str = ""
    kind: str = ""
    deck: str = ""
    set_code: str = ""
    tags: Sequence[str] = ()
    ranges: Mapping[str, tuple[int | None, int | None]] = field(default_factory=dict)
    slot: str = ""
    usable: str = ""
    vs: str = ""
    bad: str = ""
    is_flags: Sequence[str] = ()
    not_flags: Sequence[str] = ()
    author: str = ""
    order: str = ""
    descending: bool = False


def _range(key: str, low: int | None, high: int | None) -> list[str]:
    if low is not None and low == high:
        return [f"{key}={low}"]
    return ([f"{key}>={low}"] if low is not None else []) + (
        [f"{key}<={high}"] if high is not None else []
    )


def build_query(criteria: Criteria) -> str:
    """The query asking for every criterion (all must match), empty when none is given."""
    terms: list[str] = []

    def keyed(key: str, value: str) -> None:
        if value.strip():
            terms.append(f"{key}:{quote(value.strip())}")

    keyed("name", criteria.name)
    keyed("o", criteria.text)
    keyed("t", criteria.kind)
    keyed("deck", criteria.deck)
    keyed("set", criteria.set_code)
    for tag in criteria.tags:
        keyed("tag", tag)
    for key, (low, high) in criteria.ranges.items():
        terms += _range(key, low, high)
    keyed("slot", criteria.slot)
    keyed("usable", criteria.usable)
    keyed("vs", criteria.vs)
    keyed("bad", criteria.bad)
    for flag in criteria.is_flags:
        keyed("is", flag)
    for flag in criteria.not_flags:
        keyed("not", flag)
    keyed("author", criteria.author)
    if criteria.order:
        keyed("order", criteria.order)
        if criteria.descending:
            terms.append("direction:desc")
    return " ".join(terms)
