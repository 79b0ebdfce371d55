"""The curse checks' prediction of throwing cards away from the hand (Trap! Congressional
Hearing): the card is verified only through runs with that prediction, and an engine that
throws too few cards, or forgets the level a short hand costs, fails it."""

from pathlib import Path

import pytest

from tests.conftest import FIXTURE_SETS
from tests.validator.planting import assert_planted_bug_fails, planted
from validator.checks import check_card
from validator.checks.curses import predict_discard_from_hand
from validator.checks.oracle import Victim
from validator.engine import (
    CurseCard,
    DieRolls,
    DiscardFromHand,
    LoseLevels,
    SetDocument,
    badstuff,
    load_set_file,
)
from validator.engine.choices import DefaultChooser
from validator.engine.state import Game

HEARING = "Trap! Congressional Hearing"


@pytest.fixture(scope="module")
def hearing() -> CurseCard:
    cards = load_set_file(Path(FIXTURE_SETS / "munchkin-super.yaml")).cards
    card = next(c for c in cards if c.name == HEARING)
    assert isinstance(card, CurseCard)
    return card


RULE = DiscardFromHand(
    type="discard_from_hand", count=3, if_fewer=[LoseLevels(type="lose_levels", amount=1)]
)


def test_a_short_hand_goes_and_a_level_with_it() -> None:
    # The rulebook's Erin: two cards held, both thrown away, one level lost.
    after = predict_discard_from_hand(RULE, Victim(5, [], 1, set(), doors=1), 3)
    assert [(v.level, v.hand, v.doors) for v in after] == [(4, 0, 0)]


def test_a_big_hand_keeps_two_cards_of_any_mix() -> None:
    after = predict_discard_from_hand(RULE, Victim(5, [], 3, set(), doors=2), 3)
    assert sorted((v.level, v.hand, v.doors) for v in after) == [(5, 0, 2), (5, 1, 1), (5, 2, 0)]


def test_level_one_stays_one() -> None:
    after = predict_discard_from_hand(RULE, Victim(1, [], 2, set()), 3)
    assert [(v.level, v.hand) for v in after] == [(1, 0)]


def test_the_hearing_is_verified_by_predicted_runs(hearing: CurseCard) -> None:
    report = check_card(hearing, "munchkin-super")
    assert report.status == "pass", report.messages
    assert report.verified
    # At least the four plain victims and two more hands (5 and 2 cards).
    assert report.scenarios_run >= 6


def test_throwing_one_card_too_few_fails_the_hearing(
    hearing: CurseCard, monkeypatch: pytest.MonkeyPatch
) -> None:
    honest = DefaultChooser.cards_to_lose
    monkeypatch.setattr(
        DefaultChooser,
        "cards_to_lose",
        lambda self, game, player, candidates, count: honest(self, game, player, candidates, count)[
            : count - 1
        ],
    )
    report = check_card(hearing, "munchkin-super")
    assert report.status == "fail"
    assert any("holding 5 cards" in m for m in report.messages), report.messages


def test_a_short_hand_costing_no_level_fails_the_hearing(
    hearing: CurseCard, monkeypatch: pytest.MonkeyPatch
) -> None:
    def planted(game: object, player: object, delta: int, **kwargs: object) -> int:
        return 0  # the planted bug: levels never move, so a short hand costs nothing

    monkeypatch.setattr(badstuff, "change_level", planted)
    report = check_card(hearing, "munchkin-super")
    assert report.status == "fail"
    assert any("expected Level 4" in m for m in report.messages), report.messages


CHICKEN = "Curse! Chicken on Your Head"


@pytest.fixture(scope="module")
def chicken() -> CurseCard:
    cards = load_set_file(Path(FIXTURE_SETS / "munchkin-core.yaml")).cards
    card = next(c for c in cards if c.name == CHICKEN)
    assert isinstance(card, CurseCard)
    return card


def _shifted(card: CurseCard, amount: int) -> CurseCard:
    return card.model_copy(update={"effects": [DieRolls(type="die_rolls", amount=amount)]})


@pytest.mark.parametrize("amount", [-1, -3, 5])
def test_a_die_shift_is_verified_only_through_runs(chicken: CurseCard, amount: int) -> None:
    # Running away takes a 5 or more (core rules). With -3 no face escapes and with +5 every
    # face does, so the die shift is still run on the face nearest the edge and covered by it.
    report = check_card(_shifted(chicken, amount), "munchkin-core")
    assert report.status == "pass", report.messages
    assert report.verified


@pytest.mark.parametrize("amount", [-1, -3, 5])
def test_an_engine_ignoring_the_die_shift_fails_it(
    chicken: CurseCard, amount: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    def planted(game: Game, player: object = None) -> int:
        assert game.die is not None
        return game.die.roll()  # the planted bug: no die modifier applies

    monkeypatch.setattr(Game, "roll", planted)
    report = check_card(_shifted(chicken, amount), "munchkin-core")
    assert report.status == "fail", report.messages
    assert not report.verified
    assert any("a die of" in m for m in report.messages), report.messages


# Chicken on Your Head ends with the Headgear: it goes when a curse takes the Headgear (the
# card's own ends_with_slot), not when it takes an item of another slot.
ENDS_WITH_SLOT_CASES = [
    ("badstuff:detach_item:branch:a82ad29e", "goes when the Validator Helm"),
    ("badstuff:detach_item:branch:31828dff", "goes when the Validator Helm"),
    ("badstuff:detach_item:compare:16c425a0", "stays when the Validator Mail"),
]


@pytest.mark.parametrize(("mutant_id", "check"), ENDS_WITH_SLOT_CASES)
def test_a_curse_ending_with_its_slot_is_checked(
    core_set: SetDocument, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == "Curse! Chicken on Your Head")
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


# A curse cast on a victim killed just before, who had fitted an enhancer on their Ship: the
# Ship and its enhancer are part of the body (looted or discarded), not lost from the game nor
# left on the dead victim's table.
DEAD_WITH_SHIP_CASES = ["badstuff:kill:statement:e1e987ce", "badstuff:kill:statement:e207e6a4"]


@pytest.mark.parametrize("mutant_id", DEAD_WITH_SHIP_CASES)
def test_a_fitted_ship_goes_to_the_body(core_set: SetDocument, mutant_id: str) -> None:
    card = next(c for c in core_set.cards if c.name == "Curse! Lose Your Class")
    assert check_card(card, "munchkin-core").status == "pass"
    with planted(mutant_id):
        report = check_card(card, "munchkin-core")
    assert report.status == "fail"
    assert any("enhancer fitted on their Ship" in m for m in report.messages), report.messages


# (mutant, the check that must see it), tried with Super Munchkin's Trap! Congressional Hearing:
# a Secret Identity rolls once against a Trap; 1 to 3 it misses, 6 it hits and is lost.
SECRET_IDENTITY_CASES = [
    ("turn:apply_curse:branch:cf39aa53", "a Trap misses a Secret Identity on a roll of 3"),
    ("turn:apply_curse:compare:f7d21244", "a Trap misses a Secret Identity on a roll of 3"),
    ("turn:apply_curse:branch:146bf299", "a Trap misses a Secret Identity on a roll of 3"),
    ("turn:apply_curse:compare:888f7e55", "a Trap misses a Secret Identity on a roll of 3"),
    ("turn:apply_curse:statement:cfb6e414", "a Trap misses a Secret Identity on a roll of 3"),
    ("turn:apply_curse:branch:993c22fb", "on a roll of 6, which is lost"),
    ("turn:apply_curse:number:e3490e57", "on a roll of 6, which is lost"),
    ("turn:apply_curse:statement:06ed5fd7", "on a roll of 6, which is lost"),
    ("turn:apply_curse:number:841766be", "on a roll of 6, which is lost"),
    ("turn:apply_curse:compare:6166f32e", "a Trap misses a Secret Identity on a roll of 3"),
]


@pytest.mark.parametrize(("mutant_id", "check"), SECRET_IDENTITY_CASES)
def test_a_broken_secret_identity_fails_the_trap(
    hearing: CurseCard, mutant_id: str, check: str
) -> None:
    assert_planted_bug_fails(hearing, "munchkin-super", mutant_id, check)
