"""When a character card comes into play: a broken rule (own turn only, one Race at a time, not
the same card twice) fails the card by the check that reads it."""

import pytest

from tests.validator.planting import assert_planted_bug_fails
from validator.engine import SetDocument

# (mutant, the check that must see it), tried with the core set's Elf.
CASES = [
    # A new Race or Class is played on its player's own turn only.
    ("turn:_play_character:branch:930abbd2", "not played on another player's turn"),
    # One Race at a time: the new one takes the place of the old, which is discarded.
    ("turn:_play_character:compare:18f7dca4", "takes the place of another race"),
    ("turn:_play_character:compare:dcf7994b", "takes the place of another race"),
    ("turn:_play_character:number:acbd6400", "takes the place of another race"),
    ("turn:_play_character:compare:142d63f4", "takes the place of another race"),
    ("turn:_play_character:number:9422f92c", "takes the place of another race"),
    # Being an Elf already, a second Elf card is refused.
    ("turn:_play_character:branch:37d888f5", "not played again over itself"),
]


@pytest.mark.parametrize(("mutant_id", "check"), CASES)
def test_a_broken_character_rule_fails_the_race(
    core_set: SetDocument, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == "Elf")
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)
