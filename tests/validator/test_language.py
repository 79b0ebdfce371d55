"""The checks of the effect language on synthetic cards (validator/checks/language/): they
pass on the engine, their oracle predicts an `otherwise` from the rules, and a bug planted in
the engine where no card of the five sets reaches fails them, naming the synthetic card."""

import pytest

from tests.validator.planting import planted
from validator.checks import CardReport, check_language, language_checks
from validator.checks.language import LANGUAGE_SET, synthetic_cards
from validator.checks.oracle import Victim, predict
from validator.engine import DiscardHand, GainLevels, Roll

GAIN = GainLevels(type="gain_levels", amount=1)


def _run(name: str) -> CardReport:
    check = next(c for c in language_checks() if c.name == name)
    return check.run()


def test_every_language_check_passes_and_is_verified() -> None:
    reports = check_language()
    assert len(reports) == len(language_checks()) > len(synthetic_cards())
    for report in reports:
        assert report.set_code == LANGUAGE_SET
        assert report.status == "pass", (report.name, report.messages)
        assert report.verified, (report.name, report.messages)
        assert report.scenarios_run > 0


def test_an_otherwise_runs_when_the_outcome_finds_nothing() -> None:
    discard = DiscardHand(type="discard_hand", otherwise=[GAIN])
    bare = predict([discard], Victim(5, [], 0, set()), 3)
    assert [(v.level, v.acted) for v in bare] == [(6, True)]
    holding = predict([discard], Victim(5, [], 2, set()), 3)
    assert [(v.level, v.hand, v.acted) for v in holding] == [(5, 0, True)]


def test_a_roll_acts_only_when_the_face_it_picks_does() -> None:
    roll = Roll.model_validate(
        {
            "type": "roll",
            "outcomes": [
                {"min": 1, "max": 3, "effects": [{"type": "discard_hand"}]},
                {"min": 4, "max": 6, "effects": [{"type": "lose_levels", "amount": 2}]},
            ],
            "otherwise": [{"type": "gain_levels", "amount": 1}],
        }
    )
    # Face 2 finds no hand to discard: the roll's otherwise gives the level.
    assert [v.level for v in predict([roll], Victim(5, [], 0, set()), 2)] == [6]
    # Face 5 loses two levels, and the otherwise stays out.
    assert [v.level for v in predict([roll], Victim(5, [], 0, set()), 5)] == [3]


@pytest.mark.parametrize(
    ("mutant", "check", "words"),
    [
        # discard_hand says it acted on an empty hand: the otherwise is skipped.
        ("badstuff:_apply_one:truth:9b9bab2d", "Syn Discard Hand Or Else", "with nothing"),
        # discard_hand says it did nothing after discarding: the otherwise runs as well.
        ("badstuff:_apply_one:truth:e04608ee", "Syn Discard Hand Or Else", "fully equipped"),
        # A modified roll of 7 no longer reads as the table's 6 face.
        ("badstuff:_apply_one:number:c0a97c28", "Outcomes at the edges", "Syn Loaded Die"),
        # A Theft ability of a class no longer counts beside a Power granting Theft.
        ("abilities:_theft_sources:arithmetic:c3c591f4", "Theft granted by Powers", "roll"),
        # Flight's +1 counted down: a 4 no longer gets away.
        ("runaway:runaway_modifier:augmented:b8549da6", "Super Munchkin meta-abilities", "Flight"),
        # A second Ally no longer sends the first to the discards.
        ("turn:play:statement:52b3ccc7", "Allies, Sidekicks and Ships", "second Ally"),
        # Secret Identity's roll read one face too high: a 4 misses.
        ("turn:apply_curse:number:8d84f8ba", "Super Munchkin meta-abilities", "Trap"),
        # A card that is no monster joins a fight because it carries the undead tag.
        ("turn:join_monster:branch:28350f5a", "Abilities and bonuses", "Syn Grave Dust"),
        # A one-shot's condition no longer holds back its escape for a Human.
        ("turn:_play_one_shot:negation:d66924ae", "One-shots for some players", "escape"),
        # Cards pulled from a hand without looking are the taker's pick instead of chance.
        ("badstuff:_rivals_take:branch:e53cb818", "Cards pulled unseen", "rather than chance"),
    ],
)
def test_a_planted_bug_fails_the_language_check(mutant: str, check: str, words: str) -> None:
    assert _run(check).status == "pass"
    with planted(mutant):
        report = _run(check)
    assert report.status == "fail"
    assert any(words in message for message in report.messages), report.messages
