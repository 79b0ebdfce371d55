"""Rules text rendered from the encoding."""

import re
from typing import Any

import pytest

from tests.engine.conftest import monster
from validator.engine.cards import EFFECT_TYPES, CardBase, TextContext, parse_card
from validator.engine.text import render_text


def card_named(core_set: Any, name: str) -> CardBase:
    card: CardBase = next(c for c in core_set.cards if c.name == name)
    return card


def test_every_effect_type_renders_a_phrase() -> None:
    # Every effect class must phrase itself; an abstract one would fail to instantiate.
    for effect_type in EFFECT_TYPES:
        assert "describe" in vars(effect_type) or "outcome_text" in vars(effect_type), effect_type


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
