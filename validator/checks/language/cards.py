"""The synthetic cards checked like a card of a set (`check_card`): each `otherwise` tried
where its outcome acts and where it cannot, a discard of a kind the victim may lack, and
stats and conditions at values no printed card has."""

from __future__ import annotations

from functools import cache
from typing import Any

from validator.checks.language.shared import FULL, GAIN, LOSE, syn_monster, with_otherwise
from validator.engine import CardBase, parse_card

# Each outcome with an `otherwise`: the victims with nothing (no hand, no items, no rival
# above Level 1...) see the marker, the others see the outcome and no marker.
_OTHERWISE_MONSTERS = [
    syn_monster("Gain Or Else", [with_otherwise({"type": "gain_levels", "amount": 1}, LOSE)]),
    syn_monster("Set Level Or Else", [with_otherwise({"type": "set_level", "to": 3})]),
    syn_monster("Lose Levels Or Else", [with_otherwise({"type": "lose_levels", "amount": 1})]),
    syn_monster("Lose Items Or Else", [with_otherwise({"type": "lose_items", "count": 1})]),
    syn_monster("Gold Or Else", [with_otherwise({"type": "lose_gold_value", "amount": 300})]),
    syn_monster("Discard Hand Or Else", [with_otherwise({"type": "discard_hand"})]),
    syn_monster("Lose Cards Or Else", [with_otherwise({"type": "lose_cards", "count": 2})]),
    syn_monster(
        "Lose Race Or Else", [with_otherwise({"type": "lose_character_card", "axis": "race"})]
    ),
    syn_monster(
        "Change Class Or Else", [with_otherwise({"type": "change_character_card", "axis": "class"})]
    ),
    syn_monster("Change Sex Or Else", [with_otherwise({"type": "change_sex"})]),
    syn_monster(
        "Rivals Take Or Else",
        [with_otherwise({"type": "rivals_take", "takers": "left_then_right", "what": "item"})],
    ),
    syn_monster(
        "Rivals Take Hand Or Else",
        [with_otherwise({"type": "rivals_take", "takers": "highest_level", "what": "hand_card"})],
    ),
    syn_monster(
        "Rivals Discard Or Else",
        [with_otherwise({"type": "rivals_discard", "choosers": "left_then_right"})],
    ),
    syn_monster("Steal Item Or Else", [with_otherwise({"type": "steal_item"})]),
    syn_monster("Steal Big Item Or Else", [with_otherwise({"type": "steal_item", "size": "big"})]),
    syn_monster("Steal Level Or Else", [with_otherwise({"type": "steal_level"})]),
    syn_monster("Take From Discard Or Else", [with_otherwise({"type": "take_from_discard"})]),
    syn_monster("Draw Or Else", [with_otherwise({"type": "draw_treasures", "count": 1}, LOSE)]),
    syn_monster(
        "Lost Items Paid Or Else",
        [{"type": "lose_items", "count": "all"}, with_otherwise({"type": "others_pay_value"})],
    ),
    # A roll whose chosen effects find nothing: the roll's own `otherwise` runs.
    syn_monster(
        "Roll Or Else",
        [
            with_otherwise(
                {
                    "type": "roll",
                    "outcomes": [
                        {"min": 1, "max": 2, "effects": [{"type": "discard_hand"}]},
                        {"min": 3, "max": 5, "effects": [{"type": "lose_items", "count": 1}]},
                        {"min": 6, "max": 6, "effects": [LOSE]},
                    ],
                }
            )
        ],
    ),
    syn_monster(
        "Roll Amount",
        [
            {
                "type": "roll",
                "outcomes": [
                    {"min": 1, "max": 1, "effects": [{"type": "lose_levels", "amount": "roll"}]},
                    {"min": 2, "max": 5, "effects": [GAIN]},
                    {"min": 6, "max": 6, "effects": [{"type": "lose_levels", "amount": "roll"}]},
                ],
            }
        ],
    ),
    syn_monster(
        "Choose Or Else",
        [
            with_otherwise(
                {
                    "type": "choose",
                    "options": [[{"type": "discard_hand"}], [{"type": "lose_items", "count": 1}]],
                }
            )
        ],
    ),
]

# discard_card of a character card (the victims with the Elf the second outcome names) or of
# an item; with none of that kind, the marker.
_DISCARD_MONSTERS = [
    syn_monster(
        "Discard Race Or Else",
        [
            with_otherwise({"type": "discard_card", "kind": "race"}),
            {"type": "lose_levels", "amount": 1, "when": {"race": "elf"}},
        ],
    ),
    syn_monster("Discard Item Or Else", [with_otherwise({"type": "discard_card", "kind": "item"})]),
]

# Stats and conditions at values no printed card has.
_EDGE_CARDS = [
    # A monster that does not pursue low Levels, except a Dwarf, named nowhere else on it.
    {
        **syn_monster("Snob", [LOSE], level=10),
        "effects": [{"type": "no_pursuit", "max_level": 3, "unless": {"race": "dwarf"}}],
    },
    # A one-shot only for the monster's side (every printed one is "either" or "player").
    {
        "name": "Syn Monster Tonic",
        "deck": "treasure",
        "kind": "one_shot",
        "bonus": 3,
        "gold": 100,
        "side": "monster",
        "encoding": FULL,
    },
    # A +1 bonus against a class: no printed monster's conditional bonus is as small.
    {
        **syn_monster("Wizard Hater", [LOSE], level=6),
        "effects": [{"type": "strength", "amount": 1, "when": {"class": "wizard"}}],
    },
    # An enhancer whose Treasure floor is 0, not the 1 of the printed one (Baby).
    {
        "name": "Syn Zero Floor",
        "deck": "door",
        "kind": "monster_enhancer",
        "strength": -5,
        "treasures": -1,
        "strength_floor": 1,
        "treasures_floor": 0,
        "encoding": FULL,
    },
]

SYNTHETIC_CARDS: list[dict[str, Any]] = [*_OTHERWISE_MONSTERS, *_DISCARD_MONSTERS, *_EDGE_CARDS]


@cache
def synthetic_cards() -> tuple[CardBase, ...]:
    """The synthetic card documents, parsed (a document that no longer parses is a bug of
    this module, raised at once)."""
    return tuple(parse_card(document) for document in SYNTHETIC_CARDS)
