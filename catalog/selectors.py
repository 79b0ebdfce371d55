"""Reads from the catalog: what the pages and the API show."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import yaml
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.db.models import BooleanField, Count, ExpressionWrapper, F, Q, QuerySet, Sum

from catalog.exports.set_yaml import SetFile, set_info
from catalog.faces import face_key
from catalog.models import Card, CardSet
from catalog.provenance import card_contributions, provenance_merged
from catalog.search.compiler import CompiledQuery, compile_query
from catalog.search.parser import Term
from validator.checks import SUMMARY_KEYS, CardReport, coverage
from validator.engine import (
    CardBase,
    CardLibrary,
    dump_card,
    gold_label,
    parse_card,
    rules_sentences,
    signed,
    slot_label,
)
from validator.models import CardCheck
from validator.selectors import checks_for

KIND_LABELS = {
    "monster": "Monster",
    "curse": "Curse",
    "trap": "Trap",
    "monster_enhancer": "Monster Enhancer",
    "race": "Race",
    "class": "Class",
    "accent": "Accent",
    "loyalty": "Loyalty",
    "species": "Species",
    "power": "Power",
    "origin": "Origin",
    "training": "Training",
    "role": "Role",
    "item": "Item",
    "ship": "Ship",
    "one_shot": "One-Shot",
    "go_up_a_level": "Go Up a Level",
    "hireling": "Hireling",
    "ally": "Ally",
    "sidekick": "Sidekick",
    "other_door": "Other Door card",
    "other_treasure": "Other Treasure card",
}


def kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind, kind.replace("_", " ").title())


Viewer = User | AnonymousUser


def _viewer_id(viewer: Viewer) -> int | None:
    return viewer.pk if viewer.is_authenticated else None


def _visible(viewer: Viewer) -> Q:
    visible = Q(official=True) | Q(visibility__in=("public", "unlisted"))
    if (viewer_id := _viewer_id(viewer)) is not None:
        visible |= Q(owner_id=viewer_id)
    return visible


def _listed(viewer: Viewer) -> Q:
    listed = Q(official=True) | Q(visibility="public")
    if (viewer_id := _viewer_id(viewer)) is not None:
        listed |= Q(owner_id=viewer_id)
    return listed


def visible_sets(*, viewer: Viewer) -> QuerySet[CardSet]:
    """Sets the viewer may open by their address: official, public and unlisted sets, and
    every set of their own. Anyone else's private set does not exist for them (404)."""
    return CardSet.objects.filter(_visible(viewer))


def listed_sets(*, viewer: Viewer) -> QuerySet[CardSet]:
    """Sets that listings and search show the viewer: official and public sets, and their
    own. Unlisted sets are reached only through their address (or `set:CODE`)."""
    return CardSet.objects.filter(_listed(viewer))


def sets_owned_by(*, owner: User, viewer: Viewer) -> QuerySet[CardSet]:
    """A user's live sets as the viewer may see them listed (all, for the owner)."""
    sets = CardSet.objects.filter(owner=owner)
    if _viewer_id(viewer) != owner.pk:
        sets = sets.filter(visibility="public")
    return sets.annotate(card_count=Count("cards", filter=Q(cards__deleted_at__isnull=True)))


def sets_editable_by(*, viewer: Viewer) -> QuerySet[CardSet]:
    """The live sets the viewer may add cards to: their own, and official ones for staff."""
    if not viewer.is_authenticated:
        return CardSet.objects.none()
    editable = Q(owner_id=viewer.pk)
    if viewer.is_staff:
        editable |= Q(official=True)
    return CardSet.objects.filter(editable).order_by("name")


def set_list(*, viewer: Viewer) -> QuerySet[CardSet]:
    """The sets listed for the viewer, annotated with what `set_counts` reads."""
    return _with_counts(listed_sets(viewer=viewer))


def _with_counts(sets: QuerySet[CardSet]) -> QuerySet[CardSet]:
    # The annotations `set_counts` reads: one query for every set of a listing.
    return sets.annotate(**_count_annotations()).order_by("-official", "year", "name")


def catalog_cards(*, set_codes: list[str] | None = None) -> list[tuple[str, dict[str, object]]]:
    """(set code, card document) for every card, optionally of some sets only."""
    cards = Card.objects.filter(card_set__deleted_at__isnull=True)
    if set_codes is not None:
        cards = cards.filter(card_set__code__in=set_codes)
    return list(cards.order_by("card_set__code", "name").values_list("card_set__code", "document"))


def catalog_card_library(*, set_codes: list[str] | None = None) -> CardLibrary:
    """The catalog's cards as the engine's card library (scenarios, simulations)."""
    library = CardLibrary()
    for set_code, document in catalog_cards(set_codes=set_codes):
        library.add(set_code, parse_card(document))
    return library


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


def card_printings(*, card: Card, viewer: Viewer) -> list[Card]:
    """Cards of the same name in the other sets listed for the viewer."""
    return list(
        Card.objects.select_related("card_set")
        .filter(name__iexact=card.name, card_set__in=listed_sets(viewer=viewer))
        .exclude(pk=card.pk)
        .order_by("card_set__code")
    )


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
            live & (Q() if viewer is None else _visible(viewer)), output_field=BooleanField()
        ),
        is_listed=ExpressionWrapper(
            live & (Q() if viewer is None else _listed(viewer)), output_field=BooleanField()
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


def card_get(*, card_id: int, viewer: Viewer, set_code: str | None = None) -> Card | None:
    """A card by its id, or None. Ids are sequential, so an id alone finds only a card of a
    set listed for the viewer (official, public, their own); a card of an unlisted set is
    found only when `set_code` is its set's code (the code is that set's secret, like its
    link). Another user's private set's cards are never found."""
    reachable = Q(card_set__in=listed_sets(viewer=viewer))
    if set_code:
        reachable |= Q(card_set__in=visible_sets(viewer=viewer), card_set__code=set_code)
    return Card.objects.select_related("card_set").filter(reachable, pk=card_id).first()


def card_by_face(*, card_id: int, viewer: Viewer, face: str) -> Card | None:
    """A card by its id and the key its face is addressed by, or None: by id alone a card of
    a set listed for the viewer (`card_get`); a card of an unlisted set only when `face` is
    its face's current key, which only its set's pages (and the API's answers to those who
    name the set) give out."""
    card = card_get(card_id=card_id, viewer=viewer)
    if card is not None:
        return card
    card = (
        Card.objects.select_related("card_set")
        .filter(pk=card_id, card_set__in=visible_sets(viewer=viewer))
        .first()
    )
    if card is None or not hmac.compare_digest(face_key(card), face):
        return None
    return card


def set_get(*, code: str, viewer: Viewer) -> CardSet | None:
    """A set the viewer may open, with its card counts, or None."""
    return _with_counts(visible_sets(viewer=viewer)).filter(code=code).first()


def set_open(*, code: str, viewer: Viewer) -> CardSet | None:
    """A set the viewer may open, or None, without the counts `set_get` adds (a card write
    needs only the set, and counting its cards costs more than the write's own queries)."""
    return visible_sets(viewer=viewer).filter(code=code).first()


def set_file(*, card_set: CardSet, provenance: bool = False) -> SetFile:
    """A set and its live cards' documents in the order they were added, for the set file;
    with `provenance`, also the set's sources and each card's provenance, its accepted
    contributions merged in (what `export_set --fixture` writes)."""
    cards = Card.objects.filter(card_set=card_set).order_by("pk")
    if not provenance:
        return SetFile(
            code=card_set.code,
            info=set_info(card_set),
            documents=list(cards.values_list("document", flat=True)),
        )
    rows = list(cards.values_list("pk", "document", "provenance"))
    contributions = card_contributions(card_ids=[pk for pk, _, _ in rows])
    return SetFile(
        code=card_set.code,
        info=set_info(card_set),
        documents=[document for _, document, _ in rows],
        sources=list(card_set.sources or []),
        provenance=[
            provenance_merged(stored or {}, contributions.get(pk, [])) for pk, _, stored in rows
        ],
    )


def set_cards(*, card_set: CardSet, deck: str = "", kind: str = "") -> QuerySet[Card]:
    cards = Card.objects.filter(card_set=card_set)
    if deck:
        cards = cards.filter(deck=deck)
    if kind:
        cards = cards.filter(kind=kind)
    return cards.order_by("deck", "kind", "name")


def set_kinds(*, card_set: CardSet) -> list[tuple[str, str, int]]:
    """The kinds present in a set: (kind, label, number of cards)."""
    rows = (
        Card.objects.filter(card_set=card_set)
        .values("kind")
        .annotate(n=Count("id"))
        .order_by("kind")
    )
    return [(row["kind"], kind_label(row["kind"]), row["n"]) for row in rows]


@dataclass(frozen=True)
class CardDetail:
    card: Card
    typed: CardBase
    kind_label: str
    unencoded: list[str]
    encoding_reason: str
    check: CardCheck | None


def card_detail(*, set_code: str, slug: str, viewer: Viewer) -> CardDetail | None:
    """What the card page shows of a card the viewer may open, or None."""
    card = (
        Card.objects.select_related("card_set")
        .filter(card_set__in=visible_sets(viewer=viewer), card_set__code=set_code, slug=slug)
        .first()
    )
    if card is None:
        return None
    typed = card.typed
    encoding = typed.encoding
    return CardDetail(
        card=card,
        typed=typed,
        kind_label=kind_label(card.kind),
        unencoded=list(getattr(encoding, "clauses", [])),
        encoding_reason=getattr(encoding, "reason", ""),
        check=checks_for(document_hashes=[card.document_hash]).get(card.document_hash),
    )


@dataclass(frozen=True)
class CardRow:
    card: Card
    validation: str  # pass / warn / fail / unchecked


def set_card_rows(*, cards: Iterable[Card]) -> list[CardRow]:
    """Cards with the status of their stored validation report."""
    cards = list(cards)
    checks = checks_for(document_hashes=[c.document_hash for c in cards])
    return [
        CardRow(c, checks[c.document_hash].status if c.document_hash in checks else "unchecked")
        for c in cards
    ]


def set_coverage(*, card_set: CardSet) -> dict[str, object]:
    """The set's coverage table from the stored reports: totals and one row per kind.
    Cards not checked yet count in `cards` and their encoding, not as verified."""
    cards = list(Card.objects.filter(card_set=card_set))
    checks = checks_for(document_hashes=[c.document_hash for c in cards])
    reports = [
        CardReport(
            set_code=card_set.code,
            name=c.name,
            kind=c.kind,
            encoding=c.encoding,
            status=checks[c.document_hash].status if c.document_hash in checks else "unchecked",
            verified=c.document_hash in checks and checks[c.document_hash].verified,
        )
        for c in cards
    ]
    table = coverage(reports)
    row = table["sets"].get(card_set.code, {**table["summary"], "kinds": {}})
    return {
        "keys": SUMMARY_KEYS,
        "total": [row[k] for k in SUMMARY_KEYS],
        "kinds": [
            (kind_label(k), [v[key] for key in SUMMARY_KEYS]) for k, v in row["kinds"].items()
        ],
        "unchecked": sum(1 for c in cards if c.document_hash not in checks),
    }


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


# --------------------------------------------------------------------------------------------
# The card page (issue 17): what a player reads first (face, rules, known stats, printings,
# the card's place in its set), then the rules engine's own view, folded away.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardFact:
    """One line of the card page's stats. `provisional`: not known yet, shown as "?"."""

    label: str
    value: str
    provisional: bool = False
    tags: tuple[tuple[str, str], ...] = ()  # (tag, label): each links to its search


@dataclass(frozen=True)
class SetPosition:
    """A card's number in its set's order (the order its cards were added, as in the set
    file) and its neighbours there."""

    number: int
    total: int
    previous: Card | None
    following: Card | None


@dataclass(frozen=True)
class CardPage:
    """Everything the card page shows, player information first."""

    detail: CardDetail
    facts: list[CardFact]
    rules: list[str]
    bad_stuff: list[str]
    description: str
    position: SetPosition
    printings: list[Card]
    encoding_yaml: str

    @property
    def provisional(self) -> bool:
        return any(fact.provisional for fact in self.facts)


def _who(phrase: str) -> str:
    # "a female character" -> "Female character": a stat value, not a sentence.
    for article in ("a ", "an "):
        if phrase.startswith(article):
            phrase = phrase[len(article) :]
            break
    return phrase[:1].upper() + phrase[1:]


def _card_facts(card: Card, typed: CardBase) -> list[CardFact]:
    """The stats a player looks for, each only when the card has it. A stat the card's kind
    must have (its STAT_FIELDS) that is not known yet is "?" (the card is provisional); an
    optional one that is absent or zero is left out, as the printed card leaves it out."""
    facts: list[CardFact] = []
    required = set(typed.STAT_FIELDS)

    def add(label: str, field: str, show: Callable[[int], str], *, zero: bool = True) -> None:
        value = getattr(typed, field, None)
        if value is None:
            if field in required:
                facts.append(CardFact(label, "?", provisional=True))
        elif value or zero:
            facts.append(CardFact(label, show(value)))

    if card.kind == "monster":
        add("Level", "level", str)
        add("Treasures", "treasures", str)
        add("Levels gained", "levels_gained", str)
    elif card.kind == "monster_enhancer":
        add("Bonus", "strength", signed, zero=False)
        add("Treasures", "treasures", signed, zero=False)
    else:
        add("Bonus", "bonus", signed, zero=False)
    slot = getattr(typed, "slot", None)
    if "slot" in required and slot is None:
        facts.append(CardFact("Slot", "?", provisional=True))
    elif slot and slot != "other":
        facts.append(CardFact("Slot", slot_label(slot)))
    if getattr(typed, "big", False):
        facts.append(CardFact("Big", "Yes"))
    add("Gold", "gold", gold_label)
    if (usable := getattr(typed, "usable_by", None)) is not None:
        facts.append(CardFact("Usable by", _who(usable.phrase())))
    if (unusable := getattr(typed, "not_usable_by", None)) is not None:
        facts.append(CardFact("Not usable by", _who(unusable.phrase())))
    add("Rank", "rank", str)
    if typed.tags:
        labels = tuple((tag, tag.replace("-", " ").capitalize()) for tag in typed.tags)
        facts.append(CardFact("Tags", ", ".join(label for _, label in labels), tags=labels))
    if typed.copies is not None:
        facts.append(CardFact("Copies", str(typed.copies)))
    return facts


def _set_position(card: Card) -> SetPosition:
    siblings = Card.objects.filter(card_set_id=card.card_set_id)
    before = siblings.filter(pk__lt=card.pk)
    return SetPosition(
        number=before.count() + 1,
        total=siblings.count(),
        previous=before.order_by("-pk").first(),
        following=siblings.filter(pk__gt=card.pk).order_by("pk").first(),
    )


def card_page(*, set_code: str, slug: str, viewer: Viewer) -> CardPage | None:
    """What the card page shows of a card the viewer may open, or None.

    The rules text is rendered from the encoding without a headline repeating the stats
    (those are `facts`); a text-only card has no rules text but its description (notes)."""
    detail = card_detail(set_code=set_code, slug=slug, viewer=viewer)
    if detail is None:
        return None
    card, typed = detail.card, detail.typed
    text = rules_sentences(typed)
    # A card whose rules are not encoded shows its notes as a description, said to be ours,
    # rather than as rules text (`rules_sentences` never does so for a fully encoded card).
    description = (typed.notes or "") if text.from_notes else ""
    rules = [] if text.from_notes else text.lines
    return CardPage(
        detail=detail,
        facts=_card_facts(card, typed),
        rules=rules,
        bad_stuff=text.bad_stuff,
        description=description,
        position=_set_position(card),
        printings=card_printings(card=card, viewer=viewer),
        encoding_yaml=yaml.safe_dump(
            dump_card(typed), sort_keys=False, allow_unicode=True, width=80
        ),
    )


# --------------------------------------------------------------------------------------------
# The set page, the home page's counts and search results' views (issue 17): one source of
# every count a set shows, and the rows of the grid / list / checklist views.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetCounts:
    """How much of a set is catalogued. Distinct cards and copies are kept apart: a card
    whose copies are not known adds to `cards` and its deck, never to `copies` (the old
    tiles added nothing for it, so Booty's ten Treasure cards counted as 0 Treasure)."""

    cards: int
    door: int
    treasure: int
    neither: int  # outside both decks, or its deck not known
    copies: int  # the sum over the cards whose copies are known
    copies_known: int  # how many cards those are
    fully_encoded: int
    cards_in_box: int | None

    @property
    def copies_unknown(self) -> int:
        return self.cards - self.copies_known

    @property
    def summary(self) -> str:
        """One honest sentence: what is catalogued, what of it is known, the box's size."""
        noun = "card" if self.cards == 1 else "cards"
        text = f"{self.cards} distinct {noun} catalogued"
        if not self.cards:
            known = ""
        elif self.copies_known == self.cards:
            known = f"; copies known for all of them: {self.copies} in all"
        elif self.copies_known == 0:
            known = "; copies known for none of them"
        else:
            known = (
                f"; copies known for {self.copies_known} of them ({self.copies} in all), "
                f"not for the other {self.copies_unknown}"
            )
        box = ""
        if self.cards_in_box:
            whole = self.copies_known == self.cards and self.copies == self.cards_in_box
            box = (
                f", the whole box of {self.cards_in_box} cards"
                if whole
                else f". The box holds {self.cards_in_box} cards"
            )
        return f"{text}{known}{box}."


def _count_annotations() -> dict[str, Count | Sum]:
    # The reverse relation reads every card row, deleted or not: count only the live ones.
    live = Q(cards__deleted_at__isnull=True)
    known = live & Q(cards__copies__isnull=False)
    return {
        "card_count": Count("cards", filter=live),
        "copy_count": Sum("cards__copies", filter=known),
        "copies_known": Count("cards", filter=known),
        "door_count": Count("cards", filter=live & Q(cards__deck="door")),
        "treasure_count": Count("cards", filter=live & Q(cards__deck="treasure")),
        "full_count": Count("cards", filter=live & Q(cards__encoding="full")),
    }


def set_counts(*, card_set: CardSet) -> SetCounts:
    """The counts of a set, for every page that shows one (home, set page): read from the
    annotations `set_list` and `set_get` give, or counted here for a bare set."""
    if not hasattr(card_set, "copies_known"):
        card_set = CardSet.objects.filter(pk=card_set.pk).annotate(**_count_annotations()).get()
    cards: int = card_set.card_count  # type: ignore[attr-defined]
    door: int = card_set.door_count  # type: ignore[attr-defined]
    treasure: int = card_set.treasure_count  # type: ignore[attr-defined]
    return SetCounts(
        cards=cards,
        door=door,
        treasure=treasure,
        neither=cards - door - treasure,
        copies=card_set.copy_count or 0,  # type: ignore[attr-defined]
        copies_known=card_set.copies_known,  # type: ignore[attr-defined]
        fully_encoded=card_set.full_count,  # type: ignore[attr-defined]
        cards_in_box=card_set.cards_in_box,
    )


@dataclass(frozen=True)
class SetTile:
    card_set: CardSet
    counts: SetCounts


def set_tiles(*, viewer: Viewer) -> list[SetTile]:
    """The home page: each set listed for the viewer with its counts."""
    return [SetTile(s, set_counts(card_set=s)) for s in set_list(viewer=viewer)]


# The set page's views and orders; each order ends on the name, then the set's own order.
SET_VIEWS = ("grid", "list", "checklist")
SET_ORDERS: dict[str, tuple[str, ...]] = {
    "number": (),
    "name": ("name",),
    "kind": ("deck", "kind", "name"),
    "deck": ("deck", "name"),
    "level": ("level", "name"),
    "treasures": ("treasures", "name"),
    "bonus": ("bonus", "name"),
    "gold": ("gold", "name"),
    "copies": ("copies", "name"),
}
SET_DIRECTIONS = ("asc", "desc")
SET_PAGE_SIZE = 200  # every official set on one page; a big custom set is paged


@dataclass(frozen=True)
class CardEntry:
    """A card as the grid, list and checklist views show it. `number`: its number in its
    set (the order its cards were added, as on the card page); `stats`: its known stats on
    one line; `rules`: its rules text rendered from the encoding, Bad Stuff apart."""

    card: Card
    number: int | None
    face: str
    kind_label: str
    stats: str
    rules: list[str]
    bad_stuff: list[str]
    provisional: bool


def _stat_line(card: Card, typed: CardBase) -> str:
    """The stats a list row shows, short; "?" for one the card's kind has but is not known."""

    def known(value: int | None, show: Callable[[int], str]) -> str:
        return "?" if value is None else show(value)

    parts: list[str] = []
    if card.kind == "monster":
        parts.append(f"Level {known(card.level, str)}")
        treasures = card.treasures
        noun = "Treasure" if treasures == 1 else "Treasures"
        parts.append(f"{known(treasures, str)} {noun}")
        if card.levels_gained and card.levels_gained > 1:
            parts.append(f"+{card.levels_gained} levels")
    elif card.kind == "monster_enhancer":
        strength = getattr(typed, "strength", None)
        parts.append(known(strength, signed))
    elif card.kind in ("item", "ship", "one_shot", "hireling", "ally", "sidekick"):
        if card.bonus is None or card.bonus:
            parts.append(known(card.bonus, signed))
        if card.slot and card.slot != "other":
            parts.append(slot_label(card.slot))
        if card.big:
            parts.append("Big")
        if card.kind in ("item", "ship", "one_shot"):
            parts.append(known(card.gold, lambda g: gold_label(g, short=True)))
    if (rank := getattr(typed, "rank", None)) is not None:
        parts.append(f"Rank {rank}")
    return " · ".join(parts)


def card_entries(
    *, cards: Iterable[Card], numbers: dict[int, int] | None = None
) -> list[CardEntry]:
    """The rows of a grid, list or checklist of cards (a set's or a search's)."""
    entries = []
    for card in cards:
        typed = card.typed
        text = rules_sentences(typed)
        entries.append(
            CardEntry(
                card=card,
                number=None if numbers is None else numbers.get(card.pk),
                face=face_key(card),
                kind_label=kind_label(card.kind),
                stats=_stat_line(card, typed),
                rules=[*text.restrictions, *text.lines],
                bad_stuff=text.bad_stuff,
                provisional=text.provisional,
            )
        )
    return entries


@dataclass(frozen=True)
class SetBrowse:
    """One page of a set's cards in the order asked for. `out_of_range`: the page asked for
    is past the last one (nothing is shown)."""

    entries: list[CardEntry]
    total: int
    number: int
    per_page: int
    out_of_range: bool = False

    @property
    def num_pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def has_next(self) -> bool:
        return self.number < self.num_pages

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def set_browse(
    *,
    card_set: CardSet,
    deck: str = "",
    kind: str = "",
    order: str = "number",
    direction: str = "asc",
    page: int = 1,
    per_page: int = SET_PAGE_SIZE,
) -> SetBrowse:
    """A page of the set's cards, filtered by deck and kind, in one of SET_ORDERS. Cards
    without the stat an order sorts on come last either way."""
    numbers = {
        pk: i
        for i, pk in enumerate(
            Card.objects.filter(card_set=card_set).order_by("pk").values_list("pk", flat=True),
            start=1,
        )
    }
    cards = set_cards(card_set=card_set, deck=deck, kind=kind)
    fields = [*SET_ORDERS[order], "pk"]
    descending = direction == "desc"
    cards = cards.order_by(
        *(F(f).desc(nulls_last=True) if descending else F(f).asc(nulls_last=True) for f in fields)
    )
    total = cards.count()
    browse = SetBrowse([], total, page, per_page)
    if page > browse.num_pages:
        return SetBrowse([], total, page, per_page, out_of_range=True)
    start = (page - 1) * per_page
    chosen = list(cards.select_related("card_set")[start : start + per_page])
    return SetBrowse(card_entries(cards=chosen, numbers=numbers), total, page, per_page)
