"""Reads by name, the way deck tools and players type names: completion of a prefix, one card
by its exact or approximate name, many cards by id or name in one request, and a pack's
"Name@set-code" lines.

Every read covers the sets listed for the viewer (official, public, their own); naming a set
by its code reaches that set even when it is unlisted, as `card_get` does. Typed names are
matched by their key (catalog.names.name_key), which forgives case, accents and punctuation;
"Name@set-code" lines by their name without regard to case.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import reduce

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Q, QuerySet
from django.db.models.functions import Collate
from rapidfuzz import fuzz, process

from catalog.models import Card, CardSet, Visibility
from catalog.names import name_key
from catalog.search.fulltext import text_match
from catalog.selectors.visibility import Viewer, listed_sets, visible_sets

COMPLETIONS = 20
# Reads of the key index one completion may make (each of three times COMPLETIONS rows).
_COMPLETION_READS = 5
# How many other names an ambiguous lookup offers.
CANDIDATES = 10
# rapidfuzz's ratio (0-100) a typed word must reach against a word of a card's name to be
# taken for it: one wrong, missing or extra letter in a word of six or more letters stays above
# it ("bulrog" against "bullrog" scores 92), two slips in a short word do not.
TYPO_SCORE = 80
# Shorter words are never corrected: every one-letter slip of them is another word.
MIN_TYPO_WORD = 4
# A typed name's words beyond these are ignored (names have a dozen at most).
MAX_WORDS = 12
# Matches looked at when a name's words fit several cards.
_LOOKED_AT = 200
# The largest character there is: a prefix p is the range p <= key < p + this.
_AFTER_EVERY_KEY = "\U0010ffff"


def _scope(*, viewer: Viewer, set_code: str | None) -> QuerySet[Card]:
    if set_code:
        return Card.objects.filter(card_set__in=visible_sets(viewer=viewer).filter(code=set_code))
    return Card.objects.filter(card_set__in=listed_sets(viewer=viewer))


def _with_keys(cards: QuerySet[Card], keys: Iterable[str]) -> QuerySet[Card]:
    """Cards whose key is one of `keys`, read off the key index (on PostgreSQL it holds the
    key in the "C" collation, which a comparison must name to use it)."""
    wanted = sorted(set(keys))
    if connection.vendor == "postgresql":
        return cards.alias(key_bytes=Collate("name_key", "C")).filter(key_bytes__in=wanted)
    return cards.filter(name_key__in=wanted)


def _completing(cards: QuerySet[Card], prefix_key: str) -> QuerySet[Card]:
    """Cards whose key starts with `prefix_key`, in byte order of the key: read off the key
    index on both databases (migration 0013). SQLite compares keys byte by byte, so the prefix
    is a range; PostgreSQL reads the key in the "C" collation, as its index holds it."""
    if connection.vendor == "postgresql":
        return (
            cards.alias(key_bytes=Collate("name_key", "C"))
            .filter(key_bytes__startswith=prefix_key)
            .order_by("key_bytes")
        )
    return cards.filter(
        name_key__gte=prefix_key, name_key__lt=prefix_key + _AFTER_EVERY_KEY
    ).order_by("name_key")


def card_names_completing(*, prefix: str, viewer: Viewer, limit: int = COMPLETIONS) -> list[str]:
    """Up to `limit` card names whose key starts with the prefix's key, in key order, each
    name once however many sets print it. An empty key completes to nothing."""
    key = name_key(prefix)
    if not key:
        return []
    # Rows in key order straight off the index, a few at a time, each name kept once: no sort
    # of every match (a one-letter prefix matches thousands), and at most _COMPLETION_READS
    # reads however often the same names repeat across sets.
    rows = _completing(_scope(viewer=viewer, set_code=None), key).values_list("name_key", "name")
    found: dict[str, str] = {}
    batch = limit * 3
    for read in range(_COMPLETION_READS):
        chunk = list(rows[read * batch : (read + 1) * batch])
        for row_key, name in chunk:
            found.setdefault(name, row_key)
        if len(found) >= limit or len(chunk) < batch:
            break
    return sorted(found, key=lambda name: (found[name], name))[:limit]


def _printing_order(cards: QuerySet[Card]) -> QuerySet[Card]:
    # Among a name's printings, the official one first, then by set code: a stable choice.
    return cards.select_related("card_set").order_by("-card_set__official", "card_set__code", "pk")


@dataclass
class NamedCard:
    """The answer to a lookup by name: the card, or None with the names it could have meant
    (none at all when nothing came close)."""

    card: Card | None
    candidates: list[str] = field(default_factory=list)


def _closest_name(cards: QuerySet[Card], words: list[str]) -> NamedCard:
    """Among the cards whose name holds every word (each as the start of one of its words),
    the one with the fewest words besides them: "duck doom" means Duck of Doom rather than
    Shiny Duck of Doom. A tie between names is ambiguous."""
    holding = cards
    for word in words:
        holding = holding.filter(text_match(word, column="name"))
    found = list(
        holding.order_by("name_key").values_list("name_key", "name").distinct()[:_LOOKED_AT]
    )
    if not found:
        return NamedCard(None)
    extra = {name: len(key.split()) - len(words) for key, name in found}
    fewest = min(extra.values())
    best = sorted(name for name, count in extra.items() if count == fewest)
    if len(best) == 1:
        return NamedCard(_printing_order(cards.filter(name=best[0])).first())
    return NamedCard(None, best[:CANDIDATES])


def _public_name_words() -> list[str]:
    """Every word of the names of the cards anyone may list (official and public sets): the
    vocabulary typing slips are corrected against. Kept a minute, and read again as soon as
    cards are added or removed or a set changes (its visibility above all: a set gone private
    takes its words with it)."""
    count, last = Card.objects.aggregate(Count("pk"), Max("pk")).values()
    sets, changed = CardSet.everything.aggregate(Count("pk"), Max("updated_at")).values()
    stamp = changed.timestamp() if changed is not None else 0
    key = f"catalog:public-name-words:{count}:{last}:{sets}:{stamp}"
    words = cache.get(key)
    if words is None:
        listed = listed_sets(viewer=AnonymousUser())
        keys = Card.objects.filter(card_set__in=listed).values_list("name_key", flat=True)
        words = sorted({word for name in keys.distinct().iterator() for word in name.split()})
        cache.set(key, words, timeout=60)
    return list(words)


def _name_words(*, viewer: Viewer, set_code: str | None) -> list[str]:
    """The vocabulary of one lookup: the public words (cached), plus the words of the cards
    only this viewer may reach: their own sets that are not public, and the set they name by
    its code when it is unlisted. A word of anyone else's private card is never in it, so
    what it corrects (or leaves alone) cannot tell that such a card exists."""
    words = _public_name_words()
    ways = [Q(owner_id=viewer.pk)] if viewer.is_authenticated else []
    if set_code:
        ways.append(Q(code=set_code))
    if not ways:
        return words
    reachable = reduce(operator.or_, ways)
    private = (
        visible_sets(viewer=viewer)
        .filter(reachable, official=False)
        .exclude(visibility=Visibility.PUBLIC)
    )
    keys = Card.objects.filter(card_set__in=private).values_list("name_key", flat=True)
    extra = {word for name in keys.distinct() for word in name.split()}
    return sorted(extra.union(words)) if extra else words


def _corrected(word: str, vocabulary: list[str]) -> str | None:
    if word in vocabulary or len(word) < MIN_TYPO_WORD:
        return word
    best = process.extractOne(word, vocabulary, scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
    return None if best is None else str(best[0])


def card_named(*, name: str, viewer: Viewer, fuzzy: bool, set_code: str | None = None) -> NamedCard:
    """A card by its name. Exact: the name's key must equal a card's (case, accents and
    punctuation forgiven, nothing else). Fuzzy, when the exact key finds nothing: the names
    holding every typed word as the start of one of theirs ("kill hire" finds Kill the
    Hireling), then the same with each word corrected to the nearest word of a name the viewer
    may reach (`TYPO_SCORE`: "bulrog" finds Bullrog). One name answers with its card; several
    equally close answer with no card and the candidates."""
    key = name_key(name)
    cards = _scope(viewer=viewer, set_code=set_code)
    if not key:
        return NamedCard(None)
    exact = list(_with_keys(cards, [key]).values_list("name", flat=True).distinct())
    if len(set(exact)) == 1:
        return NamedCard(_printing_order(cards.filter(name=exact[0])).first())
    if exact or not fuzzy:
        return NamedCard(None, sorted(set(exact))[:CANDIDATES])
    words = key.split()[:MAX_WORDS]
    found = _closest_name(cards, words)
    if found.card is not None or found.candidates:
        return found
    vocabulary = _name_words(viewer=viewer, set_code=set_code)
    corrected = [_corrected(word, vocabulary) for word in words]
    if None in corrected or corrected == words:
        return NamedCard(None)
    return _closest_name(cards, [word for word in corrected if word is not None])


@dataclass(frozen=True)
class CardIdentifier:
    """One entry of a collection request: an id, or a name (with its set or not)."""

    id: int | None = None
    name: str | None = None
    set: str | None = None


def cards_collection(
    *, identifiers: Sequence[CardIdentifier], viewer: Viewer
) -> tuple[list[Card], list[CardIdentifier]]:
    """The cards the identifiers name, in their order (a card named twice is listed twice),
    and the identifiers that named none. By id, a card of a listed set; by name, the name's
    key as `card_named` matches it exactly, within the set when one is given (an unlisted set
    too, its code being its secret)."""
    ids = [i.id for i in identifiers if i.id is not None]
    by_id = _scope(viewer=viewer, set_code=None).select_related("card_set").in_bulk(ids)

    by_name: dict[str, Card] = {}
    keys = {name_key(i.name) for i in identifiers if i.name is not None and i.set is None}
    if keys:
        for card in _printing_order(_with_keys(_scope(viewer=viewer, set_code=None), keys)):
            by_name.setdefault(card.name_key, card)

    by_set_and_name: dict[tuple[str, str], Card] = {}
    for code in {i.set for i in identifiers if i.name is not None and i.set is not None}:
        wanted = {name_key(i.name) for i in identifiers if i.set == code and i.name is not None}
        for card in _with_keys(_scope(viewer=viewer, set_code=code), wanted).select_related(
            "card_set"
        ):
            by_set_and_name[(code, card.name_key)] = card

    found: list[Card] = []
    not_found: list[CardIdentifier] = []
    for identifier in identifiers:
        match: Card | None
        if identifier.id is not None:
            match = by_id.get(identifier.id)
        elif identifier.set is not None:
            match = by_set_and_name.get((identifier.set, name_key(identifier.name or "")))
        else:
            match = by_name.get(name_key(identifier.name or ""))
        if match is None:
            not_found.append(identifier)
        else:
            found.append(match)
    return found, not_found


def cards_by_reference(*, references: list[str], viewer: Viewer) -> tuple[list[int], list[str]]:
    """Card ids for "Name@set-code" lines, and an error for each line that names no card.

    One query however many lines: the visible cards of every set the lines name, matched here
    by set code and by name without regard to case."""
    errors: list[tuple[int, str]] = []
    wanted: list[tuple[int, str, str]] = []
    for number, line in enumerate(references, start=1):
        name, _, code = line.strip().rpartition("@")
        name, code = name.strip(), code.strip()
        if not name or not code:
            errors.append((number, "write Name@set-code, e.g. Net Troll@munchkin-core"))
            continue
        wanted.append((number, name, code))
    found: dict[tuple[str, str], int] = {}
    codes = {code for _, _, code in wanted}
    if codes:
        rows = (
            Card.objects.filter(card_set__in=visible_sets(viewer=viewer), card_set__code__in=codes)
            .order_by("pk")
            .values_list("pk", "name", "card_set__code")
        )
        for pk, name, code in rows:
            found.setdefault((code, name.casefold()), pk)
    ids: list[int] = []
    for number, name, code in wanted:
        card_id = found.get((code, name.casefold()))
        if card_id is None:
            errors.append((number, f"no card {name!r} in a set {code!r}"))
        else:
            ids.append(card_id)
    return ids, [f"line {number}: {message}" for number, message in sorted(errors)]
