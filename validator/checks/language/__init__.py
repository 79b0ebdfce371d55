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
the rules. The refused moves of `validator/checks/refusals.py` (selling nothing, one card
paid twice...) join the family, one unit each.

A synthetic card must come out *verified*: a check that no longer predicts one of its effects
is a failure here, not a warning, so the family cannot quietly stop seeing what it was written
for. `check_language` gives one report per synthetic card and scenario group, under the set
code `language`; `validate_cards` and the mutation run count them with the cards.

One module per family: `cards` (the synthetic cards checked like a set's), then the scenario
groups (`theft`, `outcomes`, `followers`, `meta`, `one_shots`, `powers`, `conditions`,
`abilities`, `timing`, `unseen`), over `shared` (the documents' helpers and `LanguageCheck`).
"""

from __future__ import annotations

from typing import Any

from validator.checks.language.abilities import ABILITY_CARDS, ability_scenarios
from validator.checks.language.cards import SYNTHETIC_CARDS, synthetic_cards
from validator.checks.language.conditions import CONDITION_CARDS, condition_scenarios
from validator.checks.language.followers import FOLLOWER_CARDS, follower_scenarios
from validator.checks.language.meta import META_CARDS, meta_scenarios
from validator.checks.language.one_shots import ONE_SHOT_CARDS, one_shot_scenarios
from validator.checks.language.outcomes import OUTCOME_CARDS, outcome_scenarios
from validator.checks.language.powers import POWER_CARDS, power_scenarios
from validator.checks.language.shared import (
    LANGUAGE_SET,
    LanguageCheck,
    Scenarios,
    card_check,
    scenario_check,
)
from validator.checks.language.theft import THEFT_CARDS, theft_scenarios
from validator.checks.language.timing import TIMING_CARDS, timing_scenarios
from validator.checks.language.unseen import UNSEEN_CARDS, unseen_scenarios
from validator.checks.refusals import REFUSALS, Refusal, check_refusal
from validator.checks.reports import CardReport

__all__ = [
    "LANGUAGE_SCENARIOS",
    "LANGUAGE_SET",
    "SYNTHETIC_CARDS",
    "LanguageCheck",
    "check_language",
    "language_checks",
    "synthetic_cards",
]

LANGUAGE_SCENARIOS: list[tuple[str, list[dict[str, Any]], Scenarios]] = [
    ("Cards played at set moments", TIMING_CARDS, timing_scenarios),
    ("Abilities and bonuses", ABILITY_CARDS, ability_scenarios),
    ("Conditions at their bounds", CONDITION_CARDS, condition_scenarios),
    ("Origins and Powers", POWER_CARDS, power_scenarios),
    ("One-shots for some players", ONE_SHOT_CARDS, one_shot_scenarios),
    ("Super Munchkin meta-abilities", META_CARDS, meta_scenarios),
    ("Allies, Sidekicks and Ships", FOLLOWER_CARDS, follower_scenarios),
    ("Theft granted by Powers", THEFT_CARDS, theft_scenarios),
    ("Outcomes at the edges", OUTCOME_CARDS, outcome_scenarios),
    ("Cards pulled unseen", UNSEEN_CARDS, unseen_scenarios),
]


def language_checks() -> list[LanguageCheck]:
    """Every unit of the family, in a fixed order."""
    checks = [card_check(card) for card in synthetic_cards()]
    checks += [scenario_check(name, docs, run) for name, docs, run in LANGUAGE_SCENARIOS]
    checks += [_refusal_check(refusal) for refusal in REFUSALS]
    return checks


def _refusal_check(refusal: Refusal) -> LanguageCheck:
    """A malformed move the engine must refuse, changing nothing (validator/checks/refusals.py):
    one unit each, so the mutation runner judges a change by the refusals that reach it."""
    return LanguageCheck(f"refused: {refusal.name}", lambda: check_refusal(refusal, LANGUAGE_SET))


def check_language() -> list[CardReport]:
    """Run the whole family: one report per synthetic card or scenario group."""
    return [check.run() for check in language_checks()]
