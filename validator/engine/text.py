"""Rules text rendered from a card's encoding.

The text shown to people is built from the same typed document the engine plays, so it cannot
drift from what the engine does. Each effect and condition phrases itself (cards.py); this module
turns a card into a short list of sentences. Clauses a card could not encode yet are not
rendered here: they stay in the card's notes and the page shows them apart, marked as such.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from validator.engine.cards import (
    CardBase,
    CharacterCard,
    CurseCard,
    EffectBase,
    FollowerCard,
    ItemCard,
    LevelCard,
    MonsterCard,
    MonsterEnhancerCard,
    NotCondition,
    OneShotCard,
    OtherCard,
    TextContext,
    UnknownKindCard,
    count_phrase,
    signed,
    slot_phrase,
)

_SLOT_LABEL = {
    "headgear": "Headgear",
    "armor": "Armor",
    "footgear": "Footgear",
    "one_hand": "1 Hand",
    "two_hands": "2 Hands",
    "other": "No slot",
    "vehicle": "Vehicle",
    "ship": "Ship",
}


# Whom a one-shot's bonus helps, by its `side`.
_ONE_SHOT_SIDE = {"either": "either side", "player": "the munchkins", "monster": "a monster"}


def slot_label(slot: str | None) -> str:
    return _SLOT_LABEL.get(slot or "", "Unknown slot")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _sentences(effects: Iterable[EffectBase], ctx: TextContext) -> list[str]:
    return [_sentence(effect.describe(ctx)) for effect in effects]


def gold_label(gold: int, *, short: bool = False) -> str:
    """A known Gold value as a card states it: "No Value", "400 Gold Pieces" ("400 Gold"
    where room is short: a face's corner, a list row)."""
    if gold == 0:
        return "No Value"
    return f"{gold:,} Gold" if short else f"{gold:,} Gold Pieces"


def _gold(gold: int | None) -> str:
    return "Gold value unknown" if gold is None else gold_label(gold)


def _stat_or_unknown(value: int | None, label: str, plural: str | None = None) -> str:
    return f"{label} unknown" if value is None else count_phrase(value, label, plural)


# Character kinds whose cards carry a Rank (Super Munchkin's Powers); other character cards
# have no stat at all.
RANKED_KINDS: Final[frozenset[str]] = frozenset({"power"})


def unknown_stats(card: CardBase) -> list[str]:
    """The labels of the stats the card's kind has that are not known yet (None), in the
    order a card page reads them: ``["Treasures"]`` for a monster known by its Level alone.

    A kind's stats: a monster's Level and Treasures; a monster enhancer's
    Bonus (its strength) and Treasures; an item's or ship's Bonus, Slot and Gold; a
    one-shot's Gold; a follower's Bonus; a Power's Rank. A one-shot's bonus and a follower's
    Gold are not among them: many such cards have none, and an absent value cannot be told
    from an unknown one (a fully encoded card may leave them out). Other kinds have no
    stats, so they never miss one. What counts as a stat here is what "stats known" means
    on a set's completeness (docs/completeness.md)."""
    stats: list[tuple[str, object]]
    if isinstance(card, MonsterCard):
        # A monster's printed numbers. The levels it gives are printed only when not the
        # rules' usual one, so an unknown `levels_gained` is not a missing stat.
        stats = [("Level", card.level), ("Treasures", card.treasures)]
    elif isinstance(card, MonsterEnhancerCard):
        stats = [("Bonus", card.strength), ("Treasures", card.treasures)]
    elif isinstance(card, ItemCard):
        stats = [("Bonus", card.bonus), ("Slot", card.slot), ("Gold", card.gold)]
    elif isinstance(card, OneShotCard):
        stats = [("Gold", card.gold)]
    elif isinstance(card, FollowerCard):
        stats = [("Bonus", card.bonus)]
    elif isinstance(card, CharacterCard) and card.kind in RANKED_KINDS:
        stats = [("Rank", card.rank)]
    else:
        stats = []
    return [label for label, value in stats if value is None]


def render_lines(card: CardBase) -> list[str]:
    """The card's rules text as sentences, stats first."""
    lines: list[str] = []
    if isinstance(card, MonsterCard):
        lines.append(_monster_stats(card))
        lines += _sentences(card.effects, TextContext(on_monster=True))
        if card.bad_stuff:
            lines.append(
                "Bad Stuff: " + " ".join(_sentences(card.bad_stuff, TextContext(on_monster=True)))
            )
        elif card.encoding.status == "full":
            lines.append("Bad Stuff: none.")
        else:
            lines.append("Bad Stuff: not encoded (see the notes).")
    elif isinstance(card, MonsterEnhancerCard):
        lines.append(_enhancer_text(card))
        lines += _sentences(card.effects, TextContext())
    elif isinstance(card, CurseCard):
        lines += _sentences(card.effects, TextContext())
        if card.persistent:
            keep = "It stays in play"
            if card.ends_with_slot:
                keep += f" until {slot_phrase(card.ends_with_slot)} of yours is lost"
            lines.append(keep + ".")
    elif isinstance(card, ItemCard):
        lines.append(_item_stats(card))
        lines += _restrictions(card)
        lines += _sentences(card.effects, TextContext())
    elif isinstance(card, OneShotCard):
        lines.append(_one_shot_stats(card))
        lines += _restrictions(card)
        lines += _sentences(card.effects, TextContext())
    elif isinstance(card, CharacterCard):
        if card.rank is not None:
            lines.append(f"Rank {card.rank}.")
        lines += _sentences(card.effects, TextContext())
        lines += [_sentence(a.describe(TextContext())) for a in card.abilities]
    elif isinstance(card, FollowerCard):
        if card.timing == "any":
            lines.append("Play it at any time, on anyone's turn.")
        if card.bonus:
            lines.append(f"{signed(card.bonus)} to your combat strength.")
        lines += _sentences(card.effects, TextContext())
        lines += [_sentence(a.describe(TextContext())) for a in card.abilities]
    elif isinstance(card, LevelCard | OtherCard):
        if isinstance(card.requires, NotCondition):
            lines.append(_sentence(f"Not playable by {card.requires.not_.phrase()}"))
        elif card.requires is not None:
            lines.append(_sentence(f"Playable only {card.requires.requirement()}"))
        if isinstance(card, LevelCard) and card.timing == "after_combat":
            lines.append("Play it only after a combat you won, once its Treasure is taken.")
        if isinstance(card, LevelCard) and card.timing == "after_any_combat":
            lines.append("Play it only once a combat is over, whether it was won or not.")
        effects = _sentences(card.effects, TextContext())
        if effects and isinstance(card, OtherCard) and card.timing == "on_draw":
            first = effects[0]
            effects[0] = f"As soon as it is drawn, {first[0].lower()}{first[1:]}"
        lines += effects
    elif isinstance(card, UnknownKindCard):
        lines.append("Kind of card not known yet.")
    else:  # pragma: no cover - every card type is handled above
        raise TypeError(f"no text for {type(card).__name__}")
    return [line for line in lines if line]


def render_text(card: CardBase) -> str:
    """The card's rules text as one paragraph."""
    return " ".join(render_lines(card))


def _monster_stats(card: MonsterCard) -> str:
    level = "Level unknown" if card.level is None else f"Level {card.level}"
    treasures = _stat_or_unknown(card.treasures, "Treasure")
    gained = _stat_or_unknown(card.levels_gained, "level")
    return f"{level} monster; killing it is worth {treasures} and {gained}."


def _enhancer_text(card: MonsterEnhancerCard) -> str:
    strength = "an unknown amount" if card.strength is None else signed(card.strength)
    text = f"Play on a monster in any combat: {strength} to its combat strength"
    if card.strength_floor is not None:
        text += f" (never below Level {card.strength_floor})"
    if card.treasures is None:
        text += "; its effect on Treasure is unknown"
    return text + _enhancer_treasures(card) + "."


def _enhancer_treasures(card: MonsterEnhancerCard) -> str:
    """The enhancer's change to the Treasure a killed monster gives ("" when none or unknown)."""
    if not card.treasures:
        return ""
    more = "more" if card.treasures > 0 else "fewer"
    clause = f"; {count_phrase(abs(card.treasures), 'Treasure')} {more} if it is killed"
    if card.treasures_floor is not None:
        clause += f" (never below {card.treasures_floor})"
    return clause


def _item_stats(card: ItemCard) -> str:
    parts = []
    if card.bonus is None:
        parts.append("Bonus unknown")
    elif card.bonus:
        parts.append(f"{signed(card.bonus)} bonus")
    parts.append(slot_label(card.slot) if card.slot != "other" else "No slot")
    if card.big:
        parts.append("Big")
    parts.append(_gold(card.gold))
    return ". ".join(parts) + "."


def _one_shot_stats(card: OneShotCard) -> str:
    text = "Usable once only"
    if card.bonus:
        text += f": {signed(card.bonus)} to {_ONE_SHOT_SIDE[card.side]} in a combat"
    text = f"{text}. {_gold(card.gold)}."
    if card.played_by == "combatant":
        text += " Only a player taking part in the combat may play it."
    return text


def _restrictions(card: ItemCard | OneShotCard) -> list[str]:
    lines = []
    if card.usable_by is not None:
        lines.append(_sentence(f"Usable only by {card.usable_by.phrase()}"))
    if card.not_usable_by is not None:
        lines.append(_sentence(f"Not usable by {card.not_usable_by.phrase()}"))
    return lines


@dataclass(frozen=True)
class FaceText:
    """A card's rules text for a face or a card page, apart from the stats shown beside it.

    ``lines``: the rules sentences, no stat headline (the level, Treasures, bonus, slot, Big
    and Gold are shown as stats, not repeated as a sentence); for a card whose rules are not
    encoded, its description (``from_notes``). ``restrictions``: who may use an item or a
    one-shot ("Usable only by a Dwarf."), shown on the stats line of a face. ``bad_stuff``:
    a monster's Bad Stuff sentences, without the "Bad Stuff:" heading ("None." for a fully
    encoded monster without any), empty when it is not known (no placeholder).
    ``open_questions``: the encoding's notes on what is not known of the card ("Its Gold
    value is not known."), kept out of ``lines``: for a page's rules-engine section, never a
    face. ``provisional``: a stat is not known yet (shown as "?") or something of the card's
    text is (an open question)."""

    lines: list[str]
    restrictions: list[str] = field(default_factory=list)
    bad_stuff: list[str] = field(default_factory=list)
    from_notes: bool = False
    provisional: bool = False
    open_questions: list[str] = field(default_factory=list)


_BAD_STUFF_PREFIX = "bad stuff:"
# A partly encoded card's clause that says what is not known rather than what the card does.
_OPEN_QUESTION = re.compile(r"\bnot known\b|\bdo not say\b", re.IGNORECASE)


def rules_sentences(card: CardBase) -> FaceText:
    """The card's rules text without its stat headline, its Bad Stuff apart.

    Every sentence is rendered from the encoded effects (or, for a partly encoded card, the
    clauses the encoding keeps in our own words); a card with no rules sentence at all
    shows its notes, our own description of it. Nothing in ``lines``, ``restrictions`` or
    ``bad_stuff`` says "unknown" or "not encoded": a stat not known yet is the caller's "?",
    flagged by ``provisional``. Used by the card faces (prints.faces) and the card page."""
    lines: list[str] = []
    restrictions: list[str] = []
    bad_stuff: list[str] = []
    open_questions: list[str] = []
    provisional = False
    if isinstance(card, MonsterCard):
        lines += _sentences(card.effects, TextContext(on_monster=True))
        bad_stuff += _sentences(card.bad_stuff, TextContext(on_monster=True))
        if not card.bad_stuff and card.encoding.status == "full":
            bad_stuff.append("None.")
        # The face marks a monster whose levels are unknown too (it prints no "?" for them).
        provisional = bool(unknown_stats(card)) or card.levels_gained is None
    elif isinstance(card, MonsterEnhancerCard):
        lines.append(_enhancer_face_text(card))
        lines += _sentences(card.effects, TextContext())
        provisional = bool(unknown_stats(card))
    elif isinstance(card, ItemCard | OneShotCard):
        if isinstance(card, OneShotCard):
            lines.append(_one_shot_face_text(card))
        restrictions += _restrictions(card)
        lines += _sentences(card.effects, TextContext())
        provisional = bool(unknown_stats(card))
    elif isinstance(card, UnknownKindCard):
        pass
    else:
        lines += render_lines(card)
    if card.encoding.status == "partial":
        for clause in card.encoding.clauses:
            text = _sentence(clause)
            if _OPEN_QUESTION.search(text):
                open_questions.append(text)
            elif text.lower().startswith(_BAD_STUFF_PREFIX):
                bad_stuff.append(_sentence(text[len(_BAD_STUFF_PREFIX) :]))
            else:
                lines.append(text)
    lines = [line for line in lines if line]
    from_notes = False
    # A fully encoded card with no sentence (a plain item) says all with its stats; its
    # notes would only repeat them.
    status = card.encoding.status
    if status == "text_only" or (status == "partial" and not (lines or bad_stuff)):
        from_notes = bool(card.notes)
        lines = [_sentence(card.notes)] if card.notes else lines
    return FaceText(
        lines,
        restrictions,
        [b for b in bad_stuff if b],
        from_notes,
        provisional or bool(open_questions),
        open_questions,
    )


def _enhancer_face_text(card: MonsterEnhancerCard) -> str:
    text = "Play on a monster in any combat"
    if card.strength is not None:
        text += f": {signed(card.strength)} to its combat strength"
        if card.strength_floor is not None:
            text += f" (never below Level {card.strength_floor})"
    return text + _enhancer_treasures(card) + "."


def _one_shot_face_text(card: OneShotCard) -> str:
    # The kind line says "One-Shot" and the badge the bonus: only whom it helps is left.
    text = ""
    if card.bonus:
        text = f"Play it for {_ONE_SHOT_SIDE[card.side]} in a combat."
    if card.played_by == "combatant":
        text += " Only a player taking part in the combat may play it."
    return text.strip()
