"""When a character card comes into play: a broken rule (own turn only, one Race at a time, not
the same card twice, Powers within the Level) or a broken double sale fails the card by the
check that reads it."""

import pytest

from tests.conftest import FIXTURE_SETS
from tests.validator.planting import assert_planted_bug_fails, planted
from validator.checks import check_card
from validator.engine import SetDocument, load_set_file

SUPER_SET = FIXTURE_SETS / "munchkin-super.yaml"

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


# (mutant, the check that must see it), tried with the core set's Halfling: one item sold at
# double value once a turn, back on the next, whatever was sold before becoming a Halfling.
DOUBLE_SALE_CASES = [
    ("turn:sell:number:4487d07f", "one item alone, doubled, still short of 1,000 Gold"),
    ("turn:sell:truth:dd7bc3f3", "no second double sale on the same turn"),
    ("turn:sell:boolean:dca88a93", "no second double sale on the same turn"),
    ("turn:begin_turn:truth:ced2adff", "the double sale comes back on its player's next turn"),
    ("turn:sell:truth:00ca6411", "a plain sale before it comes into play leaves the double"),
]


@pytest.mark.parametrize(("mutant_id", "check"), DOUBLE_SALE_CASES)
def test_a_broken_double_sale_fails_the_halfling(
    core_set: SetDocument, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == "Halfling")
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


# (Power, mutant, the check that must see it): Super Munchkin's Powers total at most the Level
# in Ranks. The Powers are only named (not encoded), so they pass with a warning.
POWER_CASES = [
    ("Flames", "turn:_play_character:branch:c4873861", "not played at Level 2 beside a Rank 1"),
    ("Flames", "turn:_play_character:branch:b4c471d7", "not played at Level 2 beside a Rank 1"),
    ("Flames", "turn:_play_character:arithmetic:f067340e", "not played at Level 2 beside a"),
    ("Flatness", "turn:_play_character:compare:7f70a977", "played at Level 1, its Rank"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), POWER_CASES)
def test_a_broken_power_rank_rule_fails_the_power(name: str, mutant_id: str, check: str) -> None:
    card = next(c for c in load_set_file(SUPER_SET).cards if c.name == name)
    assert check_card(card, "munchkin-super").status != "fail"
    with planted(mutant_id):
        report = check_card(card, "munchkin-super")
    assert report.status == "fail"
    assert any(check in message for message in report.messages), report.messages
