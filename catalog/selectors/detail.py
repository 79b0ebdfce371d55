"""The card page (issue 17): what a player reads first (face, rules, known stats, printings,
the card's place in its set), then the rules engine's own view, folded away. Reads Card and
the validator's stored report of the card (validator.selectors.checks_for), or the report of
other code it had before the engine or its checks changed (`stale`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import yaml

from catalog.models import Card
from catalog.selectors.labels import kind_label
from catalog.selectors.visibility import Viewer, listed_sets, visible_sets
from validator.engine import CardBase, dump_card, gold_label, rules_sentences, signed, slot_label
from validator.models import CardCheck
from validator.selectors import checks_for, stale_checks_for


@dataclass(frozen=True)
class CardDetail:
    card: Card
    typed: CardBase
    kind_label: str
    unencoded: list[str]
    encoding_reason: str
    check: CardCheck | None
    # No current report, but one made by other code: the card is being checked again, and this
    # is its earlier verdict (history, never shown as the card's verdict).
    stale: CardCheck | None = None


def card_detail(*, set_code: str, slug: str, viewer: Viewer) -> CardDetail | None:
    """What the card page shows of a card the viewer may open, or None."""
    card = (
        Card.objects.select_related("card_set")
        .filter(card_set__in=visible_sets(viewer=viewer), card_set__code=set_code, slug=slug)
        .first()
    )
    if card is None:
        return None
    typed = card.typed
    encoding = typed.encoding
    digest = card.document_hash
    check = checks_for(document_hashes=[digest]).get(digest)
    stale = stale_checks_for(document_hashes=[digest]).get(digest) if check is None else None
    return CardDetail(
        card=card,
        typed=typed,
        kind_label=kind_label(card.kind),
        unencoded=list(getattr(encoding, "clauses", [])),
        encoding_reason=getattr(encoding, "reason", ""),
        check=check,
        stale=stale,
    )


@dataclass(frozen=True)
class Verdict:
    """The rules engine's verdict on a card in a few words, for the top of its page: `state`
    (pass, warn, fail, rechecking, unchecked; also its badge's colour), `label` (the verdict
    itself), `checked` (what was checked, a sentence) and `warnings` (each in words)."""

    state: str
    label: str
    checked: str
    warnings: tuple[str, ...] = ()

    @property
    def badge(self) -> str:
        """The site's badge colour for it (badge-check-*)."""
        return self.state if self.state in ("pass", "warn", "fail") else "unchecked"


def _scenarios(count: int) -> str:
    return f"{count} scenario{'' if count == 1 else 's'}"


def _words(message: str) -> str:
    """A stored report's message ("warn: ...", "fail: ...") as a sentence."""
    for prefix in ("warn: ", "fail: "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    message = message.strip()
    return message[:1].upper() + message[1:] if message else message


_STATUS_WORDS = {"pass": "passed", "warn": "passed with warnings", "fail": "failed"}


def card_verdict(detail: CardDetail) -> Verdict:
    """The verdict of the card's current report, or why there is none yet."""
    check = detail.check
    if check is None:
        if detail.stale is not None:
            before = _STATUS_WORDS.get(detail.stale.status, detail.stale.status)
            return Verdict(
                "rechecking",
                "being re-checked",
                "The engine has changed since this card was last checked, so it is being "
                f"checked again (before the change it {before}).",
            )
        return Verdict(
            "unchecked",
            "not checked yet",
            "A card is checked in the background moments after it is saved: reload this page "
            "to see its verdict.",
        )
    runs = _scenarios(check.scenarios_run)
    warnings = tuple(_words(m) for m in check.messages if m.startswith("warn: "))
    if check.status == "fail":
        failures = [_words(m) for m in check.messages if m.startswith("fail: ")]
        why = f" {failures[0]}" if failures else ""
        return Verdict(
            "fail",
            "failed",
            f"In {runs} made from its encoding, the engine did not play it as the encoding "
            f"says.{why}",
            warnings,
        )
    label = _STATUS_WORDS.get(check.status, check.status)
    if check.verified:
        checked = f"Verified in {runs} made from its encoding: each played as it says."
    elif check.scenarios_run:
        checked = f"Checked in {runs}, but not verified yet."
    else:
        checked = "Not verified: its rules are not encoded enough for the engine to play them."
    if warnings:
        count = len(warnings)
        checked += f" {count} warning{'' if count == 1 else 's'}:"
    return Verdict("warn" if check.status == "warn" else "pass", label, checked, warnings)


def card_printings(*, card: Card, viewer: Viewer) -> list[Card]:
    """Cards of the same name in the other sets listed for the viewer."""
    return list(
        Card.objects.select_related("card_set")
        .filter(name__iexact=card.name, card_set__in=listed_sets(viewer=viewer))
        .exclude(pk=card.pk)
        .order_by("card_set__code")
    )


@dataclass(frozen=True)
class CardFact:
    """One line of the card page's stats. `provisional`: not known yet, shown as "?";
    `guessed`: given, but inferred from the card's name (its set file's `field_confidence`)."""

    label: str
    value: str
    provisional: bool = False
    guessed: bool = False
    tags: tuple[tuple[str, str], ...] = ()  # (tag, label): each links to its search


@dataclass(frozen=True)
class SetPosition:
    """A card's number in its set's order (the order its cards were added, as in the set
    file) and its neighbours there."""

    number: int
    total: int
    previous: Card | None
    following: Card | None


@dataclass(frozen=True)
class CardPage:
    """Everything the card page shows, player information first."""

    detail: CardDetail
    facts: list[CardFact]
    rules: list[str]
    bad_stuff: list[str]
    description: str
    position: SetPosition
    printings: list[Card]
    encoding_yaml: str
    verdict: Verdict

    @property
    def provisional(self) -> bool:
        return any(fact.provisional for fact in self.facts)


def _who(phrase: str) -> str:
    # "a female character" -> "Female character": a stat value, not a sentence.
    for article in ("a ", "an "):
        if phrase.startswith(article):
            phrase = phrase[len(article) :]
            break
    return phrase[:1].upper() + phrase[1:]


def _card_facts(card: Card, typed: CardBase) -> list[CardFact]:
    """The stats a player looks for, each only when the card has it. A stat the card's kind
    must have (its STAT_FIELDS) that is not known yet is "?" (the card is provisional); an
    optional one that is absent or zero is left out, as the printed card leaves it out."""
    facts: list[CardFact] = []
    required = set(typed.STAT_FIELDS)
    field_confidence = (card.provenance or {}).get("field_confidence") or {}
    guessed = {key for key, level in field_confidence.items() if level == "inferred"}

    def add(label: str, field: str, show: Callable[[int], str], *, zero: bool = True) -> None:
        value = getattr(typed, field, None)
        if value is None:
            if field in required:
                facts.append(CardFact(label, "?", provisional=True))
        elif value or zero:
            facts.append(CardFact(label, show(value), guessed=field in guessed))

    if card.kind == "monster":
        add("Level", "level", str)
        add("Treasures", "treasures", str)
        add("Levels gained", "levels_gained", str)
    elif card.kind == "monster_enhancer":
        add("Bonus", "strength", signed, zero=False)
        add("Treasures", "treasures", signed, zero=False)
    else:
        add("Bonus", "bonus", signed, zero=False)
    slot = getattr(typed, "slot", None)
    if "slot" in required and slot is None:
        facts.append(CardFact("Slot", "?", provisional=True))
    elif slot and slot != "other":
        facts.append(CardFact("Slot", slot_label(slot), guessed="slot" in guessed))
    if getattr(typed, "big", False):
        facts.append(CardFact("Big", "Yes"))
    add("Gold", "gold", gold_label)
    if (usable := getattr(typed, "usable_by", None)) is not None:
        facts.append(CardFact("Usable by", _who(usable.phrase())))
    if (unusable := getattr(typed, "not_usable_by", None)) is not None:
        facts.append(CardFact("Not usable by", _who(unusable.phrase())))
    add("Rank", "rank", str)
    if typed.tags:
        labels = tuple((tag, tag.replace("-", " ").capitalize()) for tag in typed.tags)
        facts.append(CardFact("Tags", ", ".join(label for _, label in labels), tags=labels))
    if typed.copies is not None:
        facts.append(CardFact("Copies", str(typed.copies)))
    return facts


def _set_position(card: Card) -> SetPosition:
    siblings = Card.objects.filter(card_set_id=card.card_set_id)
    before = siblings.filter(pk__lt=card.pk)
    return SetPosition(
        number=before.count() + 1,
        total=siblings.count(),
        previous=before.order_by("-pk").first(),
        following=siblings.filter(pk__gt=card.pk).order_by("pk").first(),
    )


def card_page(*, set_code: str, slug: str, viewer: Viewer) -> CardPage | None:
    """What the card page shows of a card the viewer may open, or None.

    The rules text is rendered from the encoding without a headline repeating the stats
    (those are `facts`); a text-only card has no rules text but its description (notes)."""
    detail = card_detail(set_code=set_code, slug=slug, viewer=viewer)
    if detail is None:
        return None
    card, typed = detail.card, detail.typed
    text = rules_sentences(typed)
    # A card whose rules are not encoded shows its notes as a description, said to be ours,
    # rather than as rules text (`rules_sentences` never does so for a fully encoded card).
    description = (typed.notes or "") if text.from_notes else ""
    rules = [] if text.from_notes else text.lines
    return CardPage(
        detail=detail,
        facts=_card_facts(card, typed),
        rules=rules,
        bad_stuff=text.bad_stuff,
        description=description,
        position=_set_position(card),
        printings=card_printings(card=card, viewer=viewer),
        encoding_yaml=yaml.safe_dump(
            dump_card(typed), sort_keys=False, allow_unicode=True, width=80
        ),
        verdict=card_verdict(detail),
    )
