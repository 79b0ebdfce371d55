"""The keywords of the query language and the values each accepts: one table read by the
compiler (what a term means), the syntax page (what to write) and the advanced search form
(what to offer), so none of them keeps a copy that could drift from the others.

Each keyword has one spelling the site writes (`name`) and the other spellings it reads
(`aliases`): the contract's (shared/design/search-syntax.md) and the ones people bring from
other card search engines (`type:`, `oracle:`, `level:`, `lv:`...).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from catalog.search.facets import BAD_STUFF_KINDS
from validator.engine import KINDS, Slot, nearest_word
from validator.engine import CardTag as TagVocabulary

DECKS = ("door", "treasure")
# `big` is a card's flag, not a tag of its document, but players look for it as one.
TAGS: tuple[str, ...] = (*typing.get_args(TagVocabulary), "big")
SLOTS: tuple[str, ...] = typing.get_args(Slot)
# The kind names players shorten; each maps to a kind of KINDS.
KIND_ALIASES = {"oneshot": "one_shot", "enhancer": "monster_enhancer", "gual": "go_up_a_level"}
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
    "disputed",
    "inferred",
)
# What each shortcut of `is:` / `not:` means, for the syntax page and the advanced form.
SHORTCUT_LABELS: Mapping[str, str] = {
    "big": "Big",
    "custom": "From a custom set",
    "official": "From an official set",
    "oneshot": "One-shot",
    "encoded": "Rules fully encoded",
    "partial": "Rules partly encoded",
    "textonly": "Text only",
    "valid": "Passes validation",
    "invalid": "Fails validation",
    "disputed": "Wording disputed between sources",
    "inferred": "A stat guessed from the card's name",
}
# Each order and the columns it sorts by.
ORDERS: Mapping[str, tuple[str, ...]] = {
    "name": ("name",),
    "level": ("level",),
    "treasures": ("treasures",),
    "bonus": ("bonus",),
    "gold": ("gold",),
    "set": ("card_set__code",),
}
DIRECTIONS = ("asc", "desc")
OPERATORS_OF_NUMBERS = ("=", "!=", "<", "<=", ">", ">=")

# The value lists a keyword may name (`Keyword.values`); `set` is filled per viewer.
VALUES: Mapping[str, tuple[str, ...]] = {
    "kind": KINDS,
    "deck": DECKS,
    "tag": TAGS,
    "shortcut": SHORTCUTS,
    "slot": SLOTS,
    "bad": BAD_STUFF_KINDS,
    "order": tuple(ORDERS),
    "direction": DIRECTIONS,
}


@dataclass(frozen=True)
class Keyword:
    """One keyword: how it is written, what it means and which values it takes.

    `values` names a list of VALUES (or "set"); empty for free text. `column` is the stat a
    number keyword compares; such keywords take every operator, the others `:` or `=`."""

    name: str
    aliases: tuple[str, ...]
    meaning: str
    example: str
    values: str = ""
    column: str = ""

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


KEYWORDS: tuple[Keyword, ...] = (
    Keyword("name", (), "name contains", "name:boots"),
    Keyword("o", ("text", "oracle"), "rules text contains", 'o:"lose 2 levels"'),
    Keyword("t", ("kind", "type"), "kind of card", "t:monster", values="kind"),
    Keyword("deck", (), "door or treasure", "deck:treasure", values="deck"),
    Keyword("set", ("s", "e", "edition"), "set code", "set:munchkin-booty", values="set"),
    Keyword("tag", (), "tag (a creature's kind, a weapon's...)", "tag:undead", values="tag"),
    Keyword("is", (), "has this property", "is:big", values="shortcut"),
    Keyword("not", (), "lacks this property", "not:custom", values="shortcut"),
    Keyword("lvl", ("level", "lv"), "monster level", "lvl>=16", column="level"),
    Keyword("tr", ("treasures",), "Treasures a monster gives", "tr>=4", column="treasures"),
    Keyword("bonus", (), "item or one-shot bonus", "bonus>=3", column="bonus"),
    Keyword("gold", ("value",), "Gold value", "gold<=400", column="gold"),
    Keyword("slot", (), "where an item is worn or held", "slot:footgear", values="slot"),
    Keyword("usable", (), "who may use it (a race, class...)", "usable:elf"),
    Keyword("vs", (), "has a condition on that race, class or tag", "vs:elf"),
    Keyword("bad", ("badstuff",), "kind of Bad Stuff", "bad:death", values="bad"),
    Keyword("author", (), "custom cards by that user", "author:alice"),
    Keyword("order", ("sort",), "order of the results", "order:level", values="order"),
    Keyword("direction", ("dir",), "ascending or descending", "direction:desc", values="direction"),
)

SPELLINGS: Mapping[str, Keyword] = {
    spelling: keyword for keyword in KEYWORDS for spelling in keyword.spellings
}
NUMBER_KEYWORDS = tuple(keyword for keyword in KEYWORDS if keyword.column)


def keyword(spelling: str) -> Keyword | None:
    """The keyword a spelling (in any case) stands for, if any."""
    return SPELLINGS.get(spelling.lower())


def accepted_values(values: str, *, set_codes: Iterable[str] = ()) -> tuple[str, ...]:
    """The values of a value list: VALUES[values], or for "set" the codes given."""
    if values == "set":
        return tuple(sorted(set_codes))
    return VALUES.get(values, ())


def unknown_keyword(spelling: str) -> str:
    """The warning for a keyword no spelling matches, naming the nearest keyword."""
    spelling = spelling.lower()
    nearest = nearest_word(spelling, SPELLINGS)
    if nearest is None:
        return f"{spelling}: is not a keyword (the search syntax page lists them)"
    written = SPELLINGS[nearest].name
    also = "" if nearest == written else f" ({nearest}: is the same)"
    return f"{spelling}: is not a keyword; did you mean {written}:?{also}"


def nearest_keyword(spelling: str) -> str | None:
    """The keyword (as the site writes it) nearest to a misspelt one."""
    nearest = nearest_word(spelling.lower(), SPELLINGS)
    return SPELLINGS[nearest].name if nearest else None


_PLAIN = re.compile(r"[^\s()\"]+")


def quote(value: str) -> str:
    """A value as a query writes it: quoted when it holds spaces or parentheses.

    The language has no escape for a double quote; words are matched without their
    punctuation, so a quote inside a value is written as a space, which finds the same."""
    value = " ".join(value.replace('"', " ").split())
    return value if _PLAIN.fullmatch(value) else f'"{value}"'
