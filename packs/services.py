"""Writes for packs: build a pack from the catalog, keep it, import a pack file's sets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction

from catalog.models import Card, CardSet, Visibility
from catalog.services import Actor, SetError, card_write, owned_code
from packs.blend import PackCard, blend_report
from packs.models import Pack
from packs.selectors import PackBuildError, pack_candidates, pack_sets
from validator.checks import check_version
from validator.engine import CardBase, build_pack, parse_pack, read_yaml
from validator.models import CardCheck
from validator.services import cards_validate

MAX_PACK_CARDS = 5000


@dataclass
class BuiltPack:
    """A pack document ready to write or store, with the choices that made it."""

    document: dict[str, Any]
    selection: dict[str, Any]
    report: dict[str, Any]
    card_count: int
    door_copies: int
    treasure_copies: int

    @property
    def name(self) -> str:
        return str(self.document["name"])


def pack_build(
    *,
    actor: Actor | None,
    set_codes: Sequence[str],
    query: str = "",
    copies: Mapping[int, int] | None = None,
    include: Sequence[int] = (),
    include_sets: Sequence[str] = (),
    exclude: Sequence[int] = (),
    include_failing: bool = False,
    name: str = "",
) -> BuiltPack:
    """Choose a pack's cards and build its document (see validator/engine/pack.py).

    The cards of `set_codes` (every set the actor may see; None: the site itself, every set),
    narrowed by a search `query`, plus the `include`d card ids (of sets listed for the actor,
    of `set_codes` or of `include_sets`: see pack_candidates), less the `exclude`d ones, with
    `copies` changed per card id (0 leaves a card out). Cards that fail validation are left out
    unless `include_failing`; cards never checked are checked first. Any problem (an unknown
    set, a query with warnings, an empty selection) raises PackBuildError; nothing is written
    except validation reports."""
    chosen = {
        c.pk: c
        for c in pack_candidates(
            actor=actor,
            set_codes=set_codes,
            query=query,
            include=include,
            include_sets=include_sets,
        )
    }
    sets = pack_sets(actor=actor, set_codes=set_codes)
    for card_id in exclude:
        chosen.pop(card_id, None)
    copies = dict(copies or {})
    for card_id, count in copies.items():
        if not 0 <= count <= 99:
            raise PackBuildError([(f"copies.{card_id}", "copies run from 0 (leave out) to 99")])
        if count == 0:
            chosen.pop(card_id, None)
    if len(chosen) > MAX_PACK_CARDS:
        raise PackBuildError([("sets", f"a pack holds at most {MAX_PACK_CARDS} cards")])

    rows = sorted(chosen.values(), key=lambda c: (c.card_set.code, c.name))
    unchecked = {(c.card_set.code, c.document_hash): c for c in rows}
    version = check_version()
    checks = {
        row.document_hash: row
        for row in CardCheck.objects.filter(
            check_version=version, document_hash__in=[c.document_hash for c in rows]
        )
    }
    todo = [(code, c.document) for (code, digest), c in unchecked.items() if digest not in checks]
    if todo:
        cards_validate(cards=todo, deck=[(c.card_set.code, c.document) for c in rows])
        checks = {
            row.document_hash: row
            for row in CardCheck.objects.filter(
                check_version=version, document_hash__in=[c.document_hash for c in rows]
            )
        }
    failing: dict[tuple[str, str], list[str]] = {}
    left_out: list[tuple[str, str, str]] = []
    kept: list[Card] = []
    for card in rows:
        check = checks.get(card.document_hash)
        if check is not None and check.status == "fail":
            if include_failing:
                failing[(card.card_set.code, card.name)] = list(check.messages)
            else:
                left_out.append((card.card_set.code, card.name, "fails validation"))
                continue
        kept.append(card)

    entries = []
    for card in kept:
        typed = card.typed
        count = copies.get(card.pk, typed.copies if typed.copies is not None else 1)
        entries.append(PackCard(card.card_set.code, typed, count))
    in_decks = [e for e in entries if e.card.deck is not None]
    if not in_decks:
        raise PackBuildError([("sets", "the selection holds no card of either deck")])

    report = blend_report(entries, failing=failing, left_out=left_out)
    selection = {
        "sets": [s.code for s in sets],
        "query": query,
        "copies": {str(k): v for k, v in sorted(copies.items())},
        "include": sorted(include),
        "exclude": sorted(exclude),
        "include_failing": include_failing,
    }
    by_set: dict[str, list[CardBase]] = {s.code: [] for s in sets}
    for card, entry in zip(kept, entries, strict=True):
        by_set.setdefault(card.card_set.code, []).append(entry.card)
    set_rows = {s.code: s for s in sets} | {c.card_set.code: c.card_set for c in kept}
    decks: dict[str, list[tuple[str, str, int]]] = {"door": [], "treasure": []}
    for entry in in_decks:
        decks[str(entry.card.deck)].append((entry.set_code, entry.card.name, entry.copies))
    pack_name = name.strip() or " + ".join(set_rows[code].name for code in by_set)
    document = build_pack(
        name=pack_name[:120],
        sets=[
            (_set_info(set_rows[code]), cards_of_set)
            for code, cards_of_set in by_set.items()
            if cards_of_set
        ],
        decks=decks,
        metadata={"report": report, "selection": selection},
    )
    return BuiltPack(
        document=document,
        selection=selection,
        report=report,
        card_count=len(entries),
        door_copies=report["balance"]["door"],
        treasure_copies=report["balance"]["treasure"],
    )


def _set_info(card_set: CardSet) -> dict[str, Any]:
    return {
        "code": card_set.code,
        "name": card_set.name,
        "official": card_set.official,
        "year": card_set.year,
        "cards_in_box": card_set.cards_in_box,
        "description": card_set.description or None,
    }


def pack_create(*, actor: Actor | None, built: BuiltPack) -> Pack:
    """Keep a built pack, so it has a page, downloads and simulations."""
    owner = actor if isinstance(actor, User) else None
    return Pack.objects.create(
        owner=owner,
        name=built.name,
        selection=built.selection,
        document=built.document,
        sha256=built.document["sha256"],
        card_count=built.card_count,
        door_copies=built.door_copies,
        treasure_copies=built.treasure_copies,
    )


def pack_import(*, actor: Actor | None, text: str, source: str) -> list[CardSet]:
    """Load every set of a pack file into the database, in one transaction: each set is
    created (its code must be free) with every card's document as its first revision.

    With an actor, the sets become that user's private custom sets, their codes in the user's
    scope (`owned_code`); with None (a command run by the site's operator), official sets stay
    official."""
    parsed = read_yaml(text, source)  # JSON is YAML too; errors carry their line
    pack = parse_pack(parsed.data, source, parsed.lines)  # PackError names each path
    owner = actor if isinstance(actor, User) else None
    if actor is not None and owner is None:
        raise PermissionDenied("log in to import a pack")
    try:  # a user's sets take codes in their scope, like every custom set
        codes = [
            s.code if owner is None else owned_code(owner=owner, code=s.code) for s in pack.sets
        ]
    except SetError as exc:
        raise PackBuildError([("sets", exc.message)]) from exc
    taken = set(CardSet.everything.filter(code__in=codes).values_list("code", flat=True))
    if taken:
        raise PackBuildError(
            [("sets", f"the set code {code!r} is taken") for code in sorted(taken)]
        )
    created = []
    with transaction.atomic():
        for pack_set, code in zip(pack.sets, codes, strict=True):
            card_set = CardSet.objects.create(
                code=code,
                name=pack_set.name,
                official=pack_set.official if owner is None else False,
                owner=owner,
                visibility=Visibility.PUBLIC if owner is None else Visibility.PRIVATE,
                year=pack_set.year,
                cards_in_box=pack_set.cards_in_box,
                description=pack_set.description or "",
            )
            for card in pack_set.cards:
                card_write(
                    card_set=card_set, typed=card, actor=owner, source=f"import_pack {source}"
                )
            created.append(card_set)
    return created
