"""The card editor's "Start from" shapes: common cards a designer changes rather than writes.

Each is a whole card document in the effect language (a test parses every one), opened in the
editor like a card to start from; nothing is stored until the designer saves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Starter:
    label: str
    document: dict[str, Any]


FULL = {"status": "full"}

STARTERS: dict[str, Starter] = {
    "monster-vs-class": Starter(
        "A monster with a bonus against a class",
        {
            "name": "New monster",
            "deck": "door",
            "kind": "monster",
            "copies": 1,
            "level": 6,
            "treasures": 2,
            "effects": [{"type": "strength", "amount": 4, "when": {"class": "wizard"}}],
            "bad_stuff": [{"type": "lose_levels", "amount": 2}],
            "encoding": FULL,
        },
    ),
    "one-shot-bonus": Starter(
        "A one-shot bonus",
        {
            "name": "New potion",
            "deck": "treasure",
            "kind": "one_shot",
            "copies": 1,
            "bonus": 3,
            "gold": 200,
            "encoding": FULL,
        },
    ),
    "item-for-a-race": Starter(
        "An item usable only by a race",
        {
            "name": "New item",
            "deck": "treasure",
            "kind": "item",
            "copies": 1,
            "slot": "one_hand",
            "bonus": 2,
            "gold": 400,
            "usable_by": {"race": "elf"},
            "encoding": FULL,
        },
    ),
    "curse-lose-an-item": Starter(
        "A curse that loses an item",
        {
            "name": "New curse",
            "deck": "door",
            "kind": "curse",
            "copies": 1,
            "effects": [{"type": "lose_items", "slot": "headgear"}],
            "encoding": FULL,
        },
    ),
}
