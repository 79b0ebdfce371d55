"""Exercise each card's encoded effect in the rules engine (pure Python, no Django).

For every card, scenarios are generated from its encoding and run through the engine with
seeded dice, the engine's invariants checked after every step. Each scenario states what must
happen, worked out here from the encoding and the rules, independently of the engine:
conditions are tried both ways, Bad Stuff is applied to four kinds of victim (and, when it
reaches other players or the discards, at a table set to show it), items are equipped by
allowed and forbidden characters, enhancers and one-shots are played on a reference monster,
and so on. A card is *verified* only when it is fully encoded, every generated scenario passed,
and every effect type on it has a check that predicts its result: code that merely exists is
never counted. Cards are also met in seeded whole games (`meet_in_games`).

A card document that does not parse, or an engine crash, becomes that card's failure with the
scenario that caused it; the run goes on.
"""

from validator.checks.entry_points import check_card, check_cards, check_document
from validator.checks.games import add_real_play, meet_in_games
from validator.checks.language import LanguageCheck, check_language, language_checks
from validator.checks.reports import (
    SUMMARY_KEYS,
    VERDICT_SOURCES,
    CardReport,
    check_version,
    code_hash,
    coverage,
)

__all__ = [
    "SUMMARY_KEYS",
    "VERDICT_SOURCES",
    "CardReport",
    "LanguageCheck",
    "add_real_play",
    "check_card",
    "check_cards",
    "check_document",
    "check_language",
    "check_version",
    "code_hash",
    "coverage",
    "language_checks",
    "meet_in_games",
]
