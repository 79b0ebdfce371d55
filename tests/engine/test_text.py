"""Rules text rendered from the encoding."""

import re
from typing import Any

import pytest
from pydantic import TypeAdapter

from tests.conftest import FIXTURE_SETS
from tests.engine.conftest import monster
from validator.engine.cards import (
    EFFECT_TYPES,
    CardBase,
    Effect,
    EffectBase,
    ExtraCharacterCard,
    MonsterCard,
    TextContext,
    load_set_file,
    parse_card,
)
from validator.engine.text import FaceText, render_text, rules_sentences


def card_named(core_set: Any, name: str) -> CardBase:
    card: CardBase = next(c for c in core_set.cards if c.name == name)
    return card


# Every card of every fixture set, with what a phrase on it is told (monster or not).
FIXTURE_CARDS = [
    card for path in sorted(FIXTURE_SETS.glob("*.yaml")) for card in load_set_file(path).cards
]
# Effect types no fixture card holds yet, each made here from a document as a card writes it.
MADE_HERE: list[dict[str, Any]] = [
    {"type": "meta_ability", "ability": "secret_hq"},
    {"type": "extra_power_rank", "amount": 3},
]
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _effects() -> list[tuple[str, EffectBase, TextContext]]:
    found = [
        (card.name, effect, TextContext(on_monster=isinstance(card, MonsterCard)))
        for card in FIXTURE_CARDS
        for effect in card.all_effects()
    ]
    adapter: TypeAdapter[EffectBase] = TypeAdapter(Effect)
    made = [("(made here)", adapter.validate_python(doc), TextContext()) for doc in MADE_HERE]
    return found + made


def _says_number(phrase: str, value: int) -> bool:
    word = NUMBER_WORDS.get(value)
    digits = rf"(?<![\d,]){value:,}(?![\d,])"
    return bool(re.search(digits, phrase) or (word and re.search(rf"\b{word}\b", phrase)))


# Effects whose phrase is known to leave out their condition (none: keep it so).
KNOWN_WRONG: set[tuple[str, str]] = set()


def test_every_effect_type_renders_its_facts() -> None:
    effects = _effects()
    assert {type(effect) for _, effect, _ in effects} == set(EFFECT_TYPES)
    wrong = []
    for name, effect, ctx in effects:
        phrase = effect.describe(ctx)
        assert re.search(r"[A-Za-z]{3}", phrase), (name, effect)
        amount = getattr(effect, "amount", None)
        if isinstance(amount, int) and not isinstance(amount, bool):
            assert _says_number(phrase, abs(amount)), (name, amount, phrase)
        count = getattr(effect, "count", None)
        if isinstance(effect, ExtraCharacterCard):
            # `count` more Class (Race...) cards than the rules' one: "1 more", or "two" in all.
            says = _says_number(phrase, effect.count) or _says_number(phrase, effect.count + 1)
            assert says or effect.count == 1, (name, effect.count, phrase)
        elif isinstance(count, int) and not isinstance(count, bool) and count >= 2:
            assert _says_number(phrase, count), (name, count, phrase)
        if effect.when is not None and effect.when.phrase() not in phrase:
            wrong.append((name, type(effect).__name__))
    assert set(wrong) == KNOWN_WRONG


def test_every_effect_on_a_card_is_in_its_text() -> None:
    for card in FIXTURE_CARDS:
        ctx = TextContext(on_monster=isinstance(card, MonsterCard))
        text = render_text(card).lower()
        on_card = [*card.effects, *getattr(card, "bad_stuff", [])]
        for effect in on_card:
            assert effect.describe(ctx).lower() in text, (card.name, effect)


def test_monster_text_has_its_numbers_condition_and_bad_stuff() -> None:
    card = parse_card(
        monster(
            level=4,
            treasures=2,
            effects=[{"type": "strength", "amount": 5, "when": {"race": "dwarf"}}],
            bad_stuff=[{"type": "lose_levels", "amount": 2}],
        )
    )
    text = render_text(card)
    assert "Level 4" in text and "2 Treasures" in text
    assert "+5 to its combat strength against a Dwarf" in text
    assert "Bad Stuff: Lose 2 levels." in text


def test_otherwise_and_conditions_render() -> None:
    card = parse_card(
        monster(
            bad_stuff=[
                {
                    "type": "lose_items",
                    "slot": "footgear",
                    "worn": True,
                    "otherwise": [{"type": "lose_levels", "amount": 1}],
                }
            ]
        )
    )
    assert "otherwise lose 1 level" in render_text(card)


@pytest.mark.parametrize("name", ["Net Troll", "Warrior", "Horny Helmet", "Enraged"])
def test_core_cards_render_their_numbers(core_set: Any, name: str) -> None:
    card = card_named(core_set, name)
    text = render_text(card)
    assert text
    for stat in ("level", "treasures", "bonus", "gold", "strength"):
        value = getattr(card, stat, None)
        if isinstance(value, int) and value:
            assert re.search(rf"(?<!\d){abs(value):,}(?!\d)", text), (stat, text)


def test_every_core_card_renders(core_set: Any) -> None:
    for card in core_set.cards:
        text = render_text(card)
        assert text.strip(), card.name
        assert "None" not in text, (card.name, text)


def test_text_context_changes_the_subject() -> None:
    from validator.engine.cards import RunAway

    effect = RunAway(type="runaway", amount=-1)
    assert "from it" in effect.describe(TextContext(on_monster=True))
    assert "from any monster" in effect.describe(TextContext())


# --- rules_sentences: the rules text beside the stats (faces, the card page) ------------------


def test_rules_sentences_leave_out_the_monsters_stat_headline() -> None:
    card = parse_card(
        monster(
            level=4,
            treasures=2,
            effects=[{"type": "strength", "amount": 5, "when": {"race": "dwarf"}}],
            bad_stuff=[{"type": "lose_levels", "amount": 2}],
        )
    )
    text = rules_sentences(card)
    assert text.lines == ["+5 to its combat strength against a Dwarf."]
    assert text.bad_stuff == ["Lose 2 levels."]  # apart, without its heading
    assert not text.provisional and not text.from_notes


def test_a_fully_encoded_monster_without_bad_stuff_says_none() -> None:
    assert rules_sentences(parse_card(monster())).bad_stuff == ["None."]


def test_rules_sentences_leave_out_an_items_stats_and_keep_who_may_use_it() -> None:
    card = parse_card(
        {
            "name": "Test Helm",
            "deck": "treasure",
            "kind": "item",
            "slot": "headgear",
            "bonus": 3,
            "gold": 400,
            "usable_by": {"race": "elf"},
            "encoding": {"status": "full"},
        }
    )
    text = rules_sentences(card)
    assert text.lines == [] and text.restrictions == ["Usable only by an Elf."]
    assert "400" not in " ".join(text.lines + text.restrictions)


def test_a_partly_encoded_bad_stuff_clause_goes_to_the_bad_stuff() -> None:
    card = parse_card(
        monster(
            notes="It hates Elves; its Bad Stuff takes your hat.",
            encoding={
                "status": "partial",
                "clauses": ["It hates Elves.", "Bad Stuff: lose your hat."],
            },
        )
    )
    text = rules_sentences(card)
    assert text.lines == ["It hates Elves."] and text.bad_stuff == ["Lose your hat."]


def test_a_text_only_card_gives_its_notes_and_unknown_stats_are_provisional() -> None:
    card = parse_card(
        monster(
            level=None,
            notes="A beast of our own description.",
            encoding={"status": "text_only", "reason": "not written yet"},
        )
    )
    text = rules_sentences(card)
    assert text.lines == ["A beast of our own description."] and text.from_notes
    assert text.provisional and text.bad_stuff == []


def test_no_rules_sentence_of_the_core_set_says_unknown_or_not_encoded(core_set: Any) -> None:
    for card in core_set.cards:
        text = rules_sentences(card)
        words = " ".join(text.lines + text.restrictions + text.bad_stuff)
        assert not re.search("unknown|not encoded", words, re.IGNORECASE), (card.name, words)
        assert not re.search(r"Level \d+ monster|Gold Pieces", words), (card.name, words)


def test_what_is_not_known_is_an_open_question_not_a_rules_line() -> None:
    card = parse_card(
        monster(
            notes="Eats boots. Its Bad Stuff is a mystery.",
            encoding={
                "status": "partial",
                "clauses": ["It eats boots.", "Bad Stuff not known."],
            },
        )
    )
    text = rules_sentences(card)
    assert text.lines == ["It eats boots."] and text.bad_stuff == []
    assert text.open_questions == ["Bad Stuff not known."] and text.provisional


def test_a_plain_item_has_no_sentence_and_does_not_repeat_its_notes() -> None:
    card = parse_card(
        {
            "name": "Plain Hat",
            "deck": "treasure",
            "kind": "item",
            "slot": "headgear",
            "bonus": 1,
            "gold": 100,
            "notes": "Headgear worth +1.",
            "encoding": {"status": "full"},
        }
    )
    assert rules_sentences(card) == FaceText(lines=[])


def test_a_fully_encoded_one_shot_without_a_bonus_is_not_provisional() -> None:
    # Many one-shots have no bonus at all (the core Wishing Ring: cancel a Curse, 500 Gold):
    # with its Gold known, nothing of it is missing.
    card = parse_card(
        {
            "name": "Wishing Ring",
            "deck": "treasure",
            "kind": "one_shot",
            "gold": 500,
            "effects": [{"type": "cancel_curse"}],
            "encoding": {"status": "full"},
        }
    )
    assert not rules_sentences(card).provisional
    unknown_gold = parse_card(
        {
            "name": "Ring",
            "deck": "treasure",
            "kind": "one_shot",
            "notes": "?",
            "encoding": {"status": "text_only", "reason": "x"},
        }
    )
    assert rules_sentences(unknown_gold).provisional


def test_kill_the_hireling_says_when_it_can_be_played_not_by_whom(core_set: Any) -> None:
    """`requires: {in_play_anywhere: hireling}` asks for a Hireling on the table, whoever has
    it, not for a kind of player: never "Playable only by anyone"."""
    text = render_text(card_named(core_set, "Kill the Hireling"))
    assert "Playable only while a Hireling is in play (anyone's)." in text
    assert "only by anyone" not in text


@pytest.mark.parametrize(
    ("requires", "sentence"),
    [
        ({"race": "elf"}, "Playable only by an Elf."),
        ({"any": [{"race": "elf"}, {"race": "dwarf"}]}, "Playable only by an Elf or a Dwarf."),
        ({"in_play_anywhere": "ally"}, "Playable only while an Ally is in play (anyone's)."),
        (
            {"all": [{"race": "elf"}, {"in_play_anywhere": "hireling"}]},
            "Playable only by an Elf and while a Hireling is in play (anyone's).",
        ),
        ({"monster_tag": "undead"}, "Playable only against an Undead monster."),
    ],
)
def test_a_requirement_reads_as_who_or_when(requires: dict[str, Any], sentence: str) -> None:
    card = parse_card(
        {
            "name": "Test Level",
            "deck": "treasure",
            "kind": "go_up_a_level",
            "requires": requires,
            "effects": [{"type": "gain_levels", "amount": 1}],
            "encoding": {"status": "full"},
        }
    )
    assert sentence in render_text(card)


def test_tuba_of_charm_draws_its_treasure_face_down(core_set: Any) -> None:
    """The Tuba's Treasure after an escape is drawn face down (sellesoft/card, fdask): the
    encoding says so (`face_up: false`) and the text with it."""
    text = render_text(card_named(core_set, "Tuba of Charm"))
    assert "draw 1 Treasure face down" in text


@pytest.mark.parametrize(
    ("face_up", "ending"),
    [
        (True, "draw 2 Treasures face up"),
        (False, "draw 2 Treasures face down"),
        (None, "draw 2 Treasures"),
    ],
)
def test_a_draw_says_face_up_or_down_only_when_the_card_does(
    face_up: bool | None, ending: str
) -> None:
    draw: dict[str, Any] = {"type": "draw_treasures", "count": 2}
    if face_up is not None:
        draw["face_up"] = face_up
    effect = TypeAdapter(Effect).validate_python(draw)
    assert effect.describe(TextContext()).endswith(ending)


def test_rivals_discard_says_nobody_keeps_what_is_picked(core_set: Any) -> None:
    text = render_text(card_named(core_set, "Leperchaun"))
    assert (
        "Bad Stuff: The player on your left, then the one on your right, chooses one item you "
        "have in play, which is discarded (nobody keeps it)." in text
    )
