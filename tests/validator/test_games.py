"""Whole games: the cards under test are met in seeded games, and a crash there fails the card."""

from typing import Any

import pytest

from tests.conftest import FIXTURE_SETS
from tests.validator.planting import planted
from validator.checks import CardReport
from validator.checks.games import add_real_play, die_fault, meet_in_games, reshuffle_fault
from validator.engine import load_set_file

CORE = [
    ("munchkin-core", card) for card in load_set_file(FIXTURE_SETS / "munchkin-core.yaml").cards
]


def test_cards_are_met_in_seeded_whole_games() -> None:
    targets = [entry for entry in CORE if entry[1].name in ("Net Troll", "Magic Missile")]
    meetings = meet_in_games(targets, CORE, seed=3)
    assert set(meetings) == {("munchkin-core", "Net Troll"), ("munchkin-core", "Magic Missile")}
    troll = meetings[("munchkin-core", "Net Troll")]
    assert troll.met and troll.crash is None  # the first door kicked open


def test_a_crash_in_a_whole_game_fails_the_card(monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.engine import turn

    original = turn.kick_door

    def kick_door(game: Any, player: Any) -> Any:
        card = original(game, player)
        if card.name == "Net Troll":
            raise KeyError("planted")
        return card

    monkeypatch.setattr(turn, "kick_door", kick_door)
    troll = [entry for entry in CORE if entry[1].name == "Net Troll"]
    report = CardReport("munchkin-core", "Net Troll", "monster", "full", verified=True)
    add_real_play([report], troll, CORE)
    assert report.status == "fail" and not report.verified
    assert "the engine crashed (KeyError" in report.messages[-1]


def test_a_bot_move_the_rules_refuse_fails_the_card(monkeypatch: pytest.MonkeyPatch) -> None:
    # Once a crash (issue 36: a bot equipping a hat only a Mutant may use), a refused bot move
    # is now skipped and listed on the game: the whole-game check still fails the card for it.
    from validator.engine import turn

    original = turn.kick_door

    def kick_door(game: Any, player: Any) -> Any:
        card = original(game, player)
        if card.name == "Net Troll":
            game.bot_refusals.append(f"{player.name} equip Planted Hat: usable only by a Mutant")
        return card

    monkeypatch.setattr(turn, "kick_door", kick_door)
    troll = [entry for entry in CORE if entry[1].name == "Net Troll"]
    report = CardReport("munchkin-core", "Net Troll", "monster", "full", verified=True)
    add_real_play([report], troll, CORE)
    assert report.status == "fail" and not report.verified
    assert "the rules refused a bot's move" in report.messages[-1]
    assert "usable only by a Mutant" in report.messages[-1]


@pytest.mark.parametrize(
    "mutant_id", ["state:SeededDie.roll:number:013ddeaf", "state:SeededDie.roll:number:d2514596"]
)
def test_a_die_that_is_not_six_sided_fails_every_card_of_the_games(mutant_id: str) -> None:
    """A die that never shows a 1, or shows a 7, is caught before any game is played."""
    troll = [entry for entry in CORE if entry[1].name == "Net Troll"]
    assert die_fault(1) is None
    with planted(mutant_id):
        assert die_fault(1) is not None
        meeting = meet_in_games(troll, CORE)[("munchkin-core", "Net Troll")]
    assert meeting.crash is not None and "six-sided" in meeting.crash


@pytest.mark.parametrize(
    ("mutant_id", "words"),
    [
        ("state:Game.draw:statement:1cd46d1c", "not shuffled"),  # the shuffle forgotten
        ("state:Game.draw:statement:3d386687", "same cards"),  # the discards kept as well
    ],
)
def test_a_deck_not_made_again_by_shuffling_its_discards_fails_every_card(
    mutant_id: str, words: str
) -> None:
    """Core rules: a deck run out is made again by shuffling its discards."""
    troll = [entry for entry in CORE if entry[1].name == "Net Troll"]
    assert reshuffle_fault(CORE, 1) is None
    with planted(mutant_id):
        meeting = meet_in_games(troll, CORE)[("munchkin-core", "Net Troll")]
    assert meeting.crash is not None and words in meeting.crash
