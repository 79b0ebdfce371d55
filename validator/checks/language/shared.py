"""What the families of synthetic cards share: the set code, the markers put in an
`otherwise`, the small card documents the families are written with, and the units
(`LanguageCheck`) a synthetic card or a group of scenarios becomes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from validator.checks.references import library_for
from validator.checks.reports import CardReport
from validator.checks.runner import CheckContext
from validator.engine import CardBase, parse_card

LANGUAGE_SET = "language"
FULL = {"status": "full"}

# Markers put in an `otherwise`: plain outcomes whose effect shows on any victim the checks
# use (a level gained shows below Level 9; a level lost above Level 1).
GAIN = {"type": "gain_levels", "amount": 1}
LOSE = {"type": "lose_levels", "amount": 1}


def with_otherwise(outcome: dict[str, Any], marker: dict[str, Any] = GAIN) -> dict[str, Any]:
    """The outcome with `marker` as its `otherwise`, to show which of the two ran."""
    return {**outcome, "otherwise": [marker]}


def syn_monster(name: str, bad_stuff: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
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
        "encoding": FULL,
        **extra,
    }


def syn_power(name: str, **extra: Any) -> dict[str, Any]:
    """A Rank 1 Power's document, `extra` keys added (a kind, effects...)."""
    return {"name": name, "deck": "door", "kind": "power", "rank": 1, "encoding": FULL, **extra}


def syn_item(name: str, slot: str = "other", **extra: Any) -> dict[str, Any]:
    """A bonus-less item's document worth 100 Gold, `extra` keys added."""
    return {
        "name": name,
        "deck": "treasure",
        "kind": "item",
        "slot": slot,
        "bonus": 0,
        "gold": 100,
        "encoding": FULL,
        **extra,
    }


def syn_follower(name: str, kind: str, bonus: int, **extra: Any) -> dict[str, Any]:
    """A follower's document (an Ally is a Door, the others Treasures), `extra` added."""
    deck = "door" if kind == "ally" else "treasure"
    return {
        "name": name,
        "deck": deck,
        "kind": kind,
        "bonus": bonus,
        "encoding": FULL,
        **extra,
    }


@dataclass(frozen=True)
class LanguageCheck:
    """One unit of the family: a synthetic card's checks, or a group of scenarios."""

    name: str
    run: Callable[[], CardReport]

    @property
    def key(self) -> str:
        return f"{LANGUAGE_SET} / {self.name}"


def card_check(card: CardBase) -> LanguageCheck:
    """A synthetic card's unit: its checks as a card of a set, to come out verified."""

    def run() -> CardReport:
        from validator.checks.entry_points import check_card

        report = check_card(card, LANGUAGE_SET)
        if report.status != "fail" and not report.verified:
            # Written to be predicted in full: a warning here means a check stopped seeing it.
            warnings = "; ".join(m.removeprefix("warn: ") for m in report.messages)
            report.fail(f"a synthetic card must be verified ({warnings})")
        return report

    return LanguageCheck(card.name, run)


Scenarios = Callable[[CheckContext], None]


def scenario_check(
    name: str, documents: list[dict[str, Any]], scenarios: Scenarios
) -> LanguageCheck:
    """A group of scenarios around synthetic cards (`documents`), each run with an
    expectation written from the rules; any failure fails the group's report."""

    def run() -> CardReport:
        cards = [parse_card(d) for d in documents]
        report = CardReport(LANGUAGE_SET, name, "scenarios", "full")
        library = library_for(cards[0], LANGUAGE_SET)
        for card in cards[1:]:
            library.add(LANGUAGE_SET, card)
        ctx = CheckContext(cards[0], LANGUAGE_SET, report, library)
        scenarios(ctx)
        report.verified = report.status != "fail"
        return report

    return LanguageCheck(name, run)
