"""The blend report: what a designer should know about a mix of cards before playing it.

Pure functions over typed cards (no database), so the pack builder's page, the pack's
metadata and the tests all read one computation.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from validator.engine import CHARACTER_KINDS, CardBase, MonsterCard

# Cards printed in several sets under one name are the same generic card (Wandering Monster,
# Go Up a Level cards, ...): a blend of those sets holds them more than once.


@dataclass(frozen=True)
class PackCard:
    set_code: str
    card: CardBase
    copies: int


def _trait(name: str) -> str:
    return name.casefold().replace("-", " ").replace("_", " ").strip()


def _providers(cards: Iterable[PackCard]) -> dict[str, set[str]]:
    """What the pack can make true: character names per axis, tags, monster names."""
    provided: dict[str, set[str]] = defaultdict(set)
    for entry in cards:
        card = entry.card
        if card.kind_name in CHARACTER_KINDS:
            provided[card.kind_name].add(_trait(card.name))
        for tag in card.tags:
            provided["tag"].add(_trait(tag))
        if isinstance(card, MonsterCard):
            provided["monster"].add(_trait(card.name))
            provided["tag"].update(_trait(t) for t in card.tags)
        if getattr(card, "big", False):
            provided["tag"].add("big")
    provided["sex"] = {"male", "female"}
    provided["race"].add("human")  # a character with no Race card is Human
    return provided


def _plural_forms(name: str) -> set[str]:
    forms = {name}
    if name.endswith("ves"):
        forms.add(name[:-3] + "f")
    if name.endswith("s"):
        forms.add(name[:-1])
    return forms


def never_true(cards: list[PackCard]) -> list[dict[str, str]]:
    """Conditions that no card in the pack can make true: a bonus against Elves in a pack
    without the Elf, a bonus against Undead with no Undead monster."""
    provided = _providers(cards)
    found: dict[tuple[str, str, str, str], dict[str, str]] = {}
    for entry in cards:
        for condition in entry.card.all_conditions():
            for axis, name in condition.mentions():
                wanted = _plural_forms(_trait(name))
                if axis in provided and wanted & provided[axis]:
                    continue
                if axis not in provided and axis not in (*CHARACTER_KINDS, "tag"):
                    continue  # an axis the report does not track
                key = (entry.set_code, entry.card.name, axis, name)
                found[key] = {
                    "set": entry.set_code,
                    "card": entry.card.name,
                    "axis": axis,
                    "name": name,
                    "why": f"no {axis} card named {name!r} is in the pack"
                    if axis in CHARACTER_KINDS
                    else f"no card in the pack has the {axis} {name!r}",
                }
    return sorted(found.values(), key=lambda f: (f["set"], f["card"], f["axis"], f["name"]))


def blend_report(
    cards: list[PackCard],
    *,
    failing: Mapping[tuple[str, str], list[str]] | None = None,
    left_out: Iterable[tuple[str, str, str]] = (),
) -> dict[str, Any]:
    """Everything the pack page and the pack's metadata say about a blend.

    `failing`: (set code, card name) -> validator messages, for cards kept in although they
    fail validation. `left_out`: (set code, card name, why) for cards the builder dropped."""
    decks: Counter[str] = Counter()
    per_set: dict[str, Counter[str]] = defaultdict(Counter)
    curve: dict[str, Counter[int]] = defaultdict(Counter)
    axes: dict[str, set[str]] = defaultdict(set)
    names: dict[str, set[str]] = defaultdict(set)
    outside = []
    for entry in cards:
        card = entry.card
        deck = card.deck or ""
        if deck:
            decks[deck] += entry.copies
            per_set[entry.set_code][deck] += entry.copies
        else:
            outside.append(f"{card.name} ({entry.set_code})")
        if isinstance(card, MonsterCard) and card.level is not None:
            curve[entry.set_code][card.level] += entry.copies
        if card.kind_name in CHARACTER_KINDS:
            axes[card.kind_name].add(card.name)
        names[card.name.casefold()].add(entry.set_code)
    by_name = {entry.card.name.casefold(): entry.card.name for entry in cards}
    duplicated = [
        {"name": by_name[key], "sets": sorted(codes)}
        for key, codes in sorted(names.items())
        if len(codes) > 1
    ]
    door, treasure = decks["door"], decks["treasure"]
    return {
        "balance": {
            "door": door,
            "treasure": treasure,
            "door_share": round(door / (door + treasure), 3) if door + treasure else None,
            "per_set": {code: dict(sorted(c.items())) for code, c in sorted(per_set.items())},
            "outside_decks": sorted(outside),
        },
        "monster_levels": {
            code: {str(level): n for level, n in sorted(c.items())}
            for code, c in sorted(curve.items())
        },
        "never_true": never_true(cards),
        "duplicated": duplicated,
        "axes": {axis: sorted(found) for axis, found in sorted(axes.items())},
        "failing_included": [
            {"set": code, "card": name, "messages": list(messages)}
            for (code, name), messages in sorted((failing or {}).items())
        ],
        "left_out": [{"set": s, "card": c, "why": why} for s, c, why in left_out],
    }
