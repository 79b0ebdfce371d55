"""The effect language on synthetic cards: what no card of the five sets shows.

The per-card checks only try what the sets' cards say: an `otherwise` after an outcome that
never fails, a roll table's face no printed table has, a steal of a Big item, an outcome that
gains where the printed ones take... never reach the engine, however wrong it is there. A
designer's custom card can say all of it, so the validator tries it here: each entry of
`SYNTHETIC_CARDS` is a small card document written in the effect language (every outcome
type, each `otherwise` tried on victims where the outcome acts and where it cannot, each
condition true and false, roll tables with faces on their edges...), checked like a card of a
set by `check_card`, whose predictions come from the encoding and the rules (the oracle),
never from the engine. `LANGUAGE_SCENARIOS` add the runs a card's own checks do not generate
(the Theft meta-ability, Allies, Ship enhancers...), each with its expectation written from
the rules.

A synthetic card must come out *verified*: a check that no longer predicts one of its effects
is a failure here, not a warning, so the family cannot quietly stop seeing what it was written
for. `check_language` gives one report per synthetic card and scenario group, under the set
code `language`; `validate_cards` and the mutation run count them with the cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from validator.checks.reports import CardReport
from validator.engine import CardBase, parse_card

LANGUAGE_SET = "language"
_FULL = {"status": "full"}

# Markers put in an `otherwise`: plain outcomes whose effect shows on any victim the checks
# use (a level gained shows below Level 9; a level lost above Level 1).
GAIN = {"type": "gain_levels", "amount": 1}
LOSE = {"type": "lose_levels", "amount": 1}


def _otherwise(outcome: dict[str, Any], marker: dict[str, Any] = GAIN) -> dict[str, Any]:
    return {**outcome, "otherwise": [marker]}


def _monster(name: str, bad_stuff: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A monster no victim beats (Level 20): its Bad Stuff is tried on the four victims of the
    monster checks and on the tables the outcomes need."""
    return {
        "name": f"Syn {name}",
        "deck": "door",
        "kind": "monster",
        "level": 20,
        "treasures": 1,
        "levels_gained": 1,
        "bad_stuff": bad_stuff,
        "encoding": _FULL,
        **extra,
    }


# Each outcome with an `otherwise`: the victims with nothing (no hand, no items, no rival
# above Level 1...) see the marker, the others see the outcome and no marker.
_OTHERWISE_MONSTERS = [
    _monster("Gain Or Else", [_otherwise({"type": "gain_levels", "amount": 1}, LOSE)]),
    _monster("Set Level Or Else", [_otherwise({"type": "set_level", "to": 3})]),
    _monster("Lose Levels Or Else", [_otherwise({"type": "lose_levels", "amount": 1})]),
    _monster("Lose Items Or Else", [_otherwise({"type": "lose_items", "count": 1})]),
    _monster("Gold Or Else", [_otherwise({"type": "lose_gold_value", "amount": 300})]),
    _monster("Discard Hand Or Else", [_otherwise({"type": "discard_hand"})]),
    _monster("Lose Cards Or Else", [_otherwise({"type": "lose_cards", "count": 2})]),
    _monster("Lose Race Or Else", [_otherwise({"type": "lose_character_card", "axis": "race"})]),
    _monster(
        "Change Class Or Else", [_otherwise({"type": "change_character_card", "axis": "class"})]
    ),
    _monster("Change Sex Or Else", [_otherwise({"type": "change_sex"})]),
    _monster(
        "Rivals Take Or Else",
        [_otherwise({"type": "rivals_take", "takers": "left_then_right", "what": "item"})],
    ),
    _monster(
        "Rivals Take Hand Or Else",
        [_otherwise({"type": "rivals_take", "takers": "highest_level", "what": "hand_card"})],
    ),
    _monster("Steal Item Or Else", [_otherwise({"type": "steal_item"})]),
    _monster("Steal Big Item Or Else", [_otherwise({"type": "steal_item", "size": "big"})]),
    _monster("Steal Level Or Else", [_otherwise({"type": "steal_level"})]),
    _monster("Take From Discard Or Else", [_otherwise({"type": "take_from_discard"})]),
    _monster("Draw Or Else", [_otherwise({"type": "draw_treasures", "count": 1}, LOSE)]),
    _monster(
        "Lost Items Paid Or Else",
        [{"type": "lose_items", "count": "all"}, _otherwise({"type": "others_pay_value"})],
    ),
    # A roll whose chosen effects find nothing: the roll's own `otherwise` runs.
    _monster(
        "Roll Or Else",
        [
            _otherwise(
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
    _monster(
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
    _monster(
        "Choose Or Else",
        [
            _otherwise(
                {
                    "type": "choose",
                    "options": [[{"type": "discard_hand"}], [{"type": "lose_items", "count": 1}]],
                }
            )
        ],
    ),
]

SYNTHETIC_CARDS: list[dict[str, Any]] = [*_OTHERWISE_MONSTERS]


@cache
def synthetic_cards() -> tuple[CardBase, ...]:
    """The synthetic card documents, parsed (a document that no longer parses is a bug of
    this module, raised at once)."""
    return tuple(parse_card(document) for document in SYNTHETIC_CARDS)


@dataclass(frozen=True)
class LanguageCheck:
    """One unit of the family: a synthetic card's checks, or a group of scenarios."""

    name: str
    run: Callable[[], CardReport]

    @property
    def key(self) -> str:
        return f"{LANGUAGE_SET} / {self.name}"


def _card_check(card: CardBase) -> LanguageCheck:
    def run() -> CardReport:
        from validator.checks.entry_points import check_card

        report = check_card(card, LANGUAGE_SET)
        if report.status != "fail" and not report.verified:
            # Written to be predicted in full: a warning here means a check stopped seeing it.
            warnings = "; ".join(m.removeprefix("warn: ") for m in report.messages)
            report.fail(f"a synthetic card must be verified ({warnings})")
        return report

    return LanguageCheck(card.name, run)


def language_checks() -> list[LanguageCheck]:
    """Every unit of the family, in a fixed order."""
    return [_card_check(card) for card in synthetic_cards()]


def check_language() -> list[CardReport]:
    """Run the whole family: one report per synthetic card or scenario group."""
    return [check.run() for check in language_checks()]
