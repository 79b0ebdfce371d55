"""The entry points: `check_card` runs the text check and the checks of the card's kind
(`KIND_CHECKS`, one family module each) and decides whether the card is verified;
`check_document` parses a card document first, a document that does not parse being the card's
failure; `check_cards` checks cards one by one, then meets them all in whole games.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from validator.checks.character_play import character_play_checks
from validator.checks.characters import character_checks
from validator.checks.curses import curse_checks
from validator.checks.games import add_real_play
from validator.checks.items import item_checks
from validator.checks.one_shots import enhancer_checks
from validator.checks.played import follower_checks
from validator.checks.references import library_for
from validator.checks.reports import CardReport
from validator.checks.runner import CheckContext, typing_literal
from validator.checks.specials import (
    level_card_and_special_checks,
    monster_and_special_checks,
    one_shot_and_special_checks,
    played_and_mate_checks,
)
from validator.checks.turn_order import turn_order_checks
from validator.engine import (
    CardBase,
    CardDocumentError,
    CharacterCard,
    CurseCard,
    FollowerCard,
    ItemCard,
    LevelCard,
    MonsterCard,
    MonsterEnhancerCard,
    OneShotCard,
    OtherCard,
    Strength,
    parse_card,
    render_text,
)


def _monster_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """A monster's own checks, then when in a turn it can be met (door or hand)."""
    monster_and_special_checks(ctx, card)
    turn_order_checks(ctx, card)


def _character_and_play_checks(ctx: CheckContext, card: CharacterCard) -> None:
    """A character card's own checks, then when it may come into play."""
    character_checks(ctx, card)
    character_play_checks(ctx, card)


KIND_CHECKS: dict[type[CardBase], Callable[[CheckContext, Any], None]] = {
    MonsterCard: _monster_checks,
    ItemCard: item_checks,
    OneShotCard: one_shot_and_special_checks,
    MonsterEnhancerCard: enhancer_checks,
    CurseCard: curse_checks,
    LevelCard: level_card_and_special_checks,
    CharacterCard: _character_and_play_checks,
    OtherCard: played_and_mate_checks,
    FollowerCard: follower_checks,
}


# --------------------------------------------------------------------------------------------
# Text check
# --------------------------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.])[+-]?\d[\d,]*")


def text_check(card: CardBase, report: CardReport) -> None:
    """The rendered text shows every number of the card's stats, and agrees with the notes."""
    text = render_text(card)
    numbers = {n.replace(",", "").lstrip("+-") for n in _NUMBER.findall(text)}
    for stat in ("level", "treasures", "levels_gained", "bonus", "gold", "strength", "rank"):
        value = getattr(card, stat, None)
        if isinstance(value, int) and value != 0 and str(abs(value)) not in numbers:
            report.fail(f"text: the {stat} {value} does not appear in the rendered text")
    if card.notes and card.encoding.status == "full":
        note_numbers = {n.replace(",", "").lstrip("+-") for n in _NUMBER.findall(card.notes)}
        # A total the notes give ("+3 altogether to an Elf") is a stat plus a conditional bonus.
        totals = {
            str(abs(stat + e.amount))
            for stat in (getattr(card, "bonus", None), getattr(card, "level", None))
            if isinstance(stat, int)
            for e in card.effects
            if isinstance(e, Strength)
        }
        missing = sorted(
            note_numbers - numbers - totals - {"1"}, key=lambda n: int(n) if n.isdigit() else 0
        )
        if missing:
            report.warn(f"text: the notes mention {', '.join(missing)}, the rendered text does not")


# --------------------------------------------------------------------------------------------
# Checks of one card, or of many
# --------------------------------------------------------------------------------------------


def check_card(card: CardBase, set_code: str = "") -> CardReport:
    """Exercise one card in the engine and report what was seen to work. A card of no set yet
    (a draft) is checked as if in a set called "draft"."""
    set_code = set_code or "draft"
    report = CardReport(set_code, card.name, card.kind_name, card.encoding.status)
    if card.encoding.status == "partial":
        clauses = getattr(card.encoding, "clauses", [])
        report.warn(f"partly encoded; not yet encoded: {'; '.join(clauses)}")
    elif card.encoding.status == "text_only":
        report.warn(f"not encoded: {getattr(card.encoding, 'reason', '')}")
    text_check(card, report)
    ctx = CheckContext(card, set_code, report, library_for(card, set_code))
    unknown = [name for name in card.STAT_FIELDS if getattr(card, name) is None]
    if card.deck is None and card.kind_name != "role":
        unknown.append("deck")
    if unknown:
        # Scenarios need the numbers; an incomplete card is reported, not failed.
        report.warn(f"incomplete: {', '.join(unknown)} not known, so its scenarios are not run")
    else:
        for card_type, checks in KIND_CHECKS.items():
            if isinstance(card, card_type):
                checks(ctx, card)
    needed = {typing_literal(type(e)) for e in card.all_effects()}
    uncovered = sorted(needed - ctx.covered)
    if uncovered and report.status != "fail":
        report.warn(f"no generated check predicts {', '.join(uncovered)} yet")
    report.verified = report.status != "fail" and card.encoding.status == "full" and not uncovered
    return report


def check_document(document: Any, set_code: str = "") -> CardReport:
    """Check a card document: a document that does not parse is a failure naming each path."""
    try:
        card = parse_card(document)
    except CardDocumentError as exc:
        name = document.get("name", "?") if isinstance(document, dict) else "?"
        report = CardReport(
            set_code,
            str(name),
            str(document.get("kind", "?")) if isinstance(document, dict) else "?",
            "invalid",
        )
        for error in exc.errors:
            report.fail(f"{error.path or '(document)'}: {error.message}")
        return report
    return check_card(card, set_code)


def check_cards(cards: Iterable[tuple[str, CardBase]]) -> list[CardReport]:
    """Check cards one by one, then meet them all in seeded whole games of their sets."""
    cards = list(cards)
    reports = [check_card(card, code) for code, card in cards]
    add_real_play(reports, cards, deck=cards)
    return reports
