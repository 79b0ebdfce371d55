"""The checks of refused moves (validator/checks/refusals.py): each passes on the engine, is a
unit of the validator that `validate_cards` and the mutation runner judge (with the engine lines
it reaches recorded), and fails when the engine guard it stands for is planted away: the move is
then accepted, crashes, or is refused for another reason than the one the contract gives."""

import pytest

from tests.validator.planting import planted
from validator.checks import CardReport, language_checks
from validator.checks.language import LANGUAGE_SET
from validator.checks.refusals import REFUSALS, Refusal, check_refusal
from validator.engine import Game, RuleViolation, ScenarioError, parse_scenario, scenario_game
from validator.mutants.operators import mutants_of_module
from validator.mutants.suite import Suite, observe


def _refusal(name: str) -> Refusal:
    return next(r for r in REFUSALS if r.name == name)


def _check(name: str) -> CardReport:
    return check_refusal(_refusal(name), LANGUAGE_SET)


def test_every_refusal_passes_on_the_engine() -> None:
    for refusal in REFUSALS:
        report = check_refusal(refusal, LANGUAGE_SET)
        assert report.status == "pass", (refusal.name, report.messages)
        assert report.verified


def test_the_refusals_are_units_of_the_validator() -> None:
    keys = {check.key for check in language_checks()}
    for refusal in REFUSALS:
        assert f"language / refused: {refusal.name}" in keys
    # The mutation runner's suite is the validator's family as `validate_cards` runs it.
    assert {c.key for c in Suite([], []).language} == keys


def test_the_mutation_runner_records_the_lines_each_refusal_reaches() -> None:
    """A mutant is run only against the observers that reach its lines: the guard each refusal
    exists for must be recorded as reached by that refusal."""
    checks = [c for c in language_checks() if c.name.startswith("refused: ")]
    verdict, reach = observe(Suite([], [], language=checks))
    assert verdict.card_failures == []
    for mutant_id, name in [
        ("turn:sell:branch:b04d03e0", "selling nothing"),
        ("turn:trade:branch:91035180", "a trade of nothing for nothing"),
        ("combat:offer_help:branch:04cc70a1", "helping for a negative Treasure share"),
        ("state:Game.draw:branch:3d69e066", "drawing with the deck and its discards empty"),
    ]:
        module = mutant_id.split(":")[0]
        mutant = next(m for m in mutants_of_module(module) if m.id == mutant_id)
        observers, _ = reach.observers(module, mutant.line, mutant.end_line)
        assert f"language / refused: {name}" in observers, (mutant_id, observers)


# (mutant: an engine guard planted away, the refusal that must then fail, how it fails)
CASES = [
    # Selling nothing falls through to "at least 1,000 Gold": another reason than the rule's.
    ("turn:sell:branch:b04d03e0", "selling nothing", "refused as"),
    # One card named twice is counted twice, then taken twice.
    ("turn:sell:branch:a0f5e8ad", "selling one item named twice", "crashed"),
    # A Race card on the table is then refused as a card the player lacks.
    ("turn:sell:branch:2e6bca4a", "selling a Race card from the table", "refused as"),
    ("turn:sell:branch:0883dc7e", "selling another player's item", "crashed"),
    # Nothing for nothing is then a trade that happens.
    ("turn:trade:branch:91035180", "a trade of nothing for nothing", "accepted"),
    ("turn:trade:negation:62b4258e", "a trade of nothing for nothing", "accepted"),
    ("abilities:use_ability:branch:e19ac1f9", "an ability paid with one card twice", "crashed"),
    ("abilities:use_ability:branch:5e76b0e3", "an ability of a card in the hand", "accepted"),
    (
        "abilities:use_ability:branch:26913f77",
        "an ability with an effect the engine does not apply",
        "accepted",
    ),
    (
        "combat_specials:bribe:branch:d4e1507f",
        "bribing a monster with another player's item",
        "crashed",
    ),
    ("combat:offer_help:branch:04cc70a1", "helping for a negative Treasure share", "accepted"),
    ("turn:sacrifice:branch:9f3d8a23", "sacrificing an item to escape", "refused as"),
    ("turn:sacrifice:branch:61eb4f6f", "sacrificing an Ally still in the hand", "crashed"),
    ("turn:sacrifice:compare:4d47376a", "sacrificing an Ally still in the hand", "crashed"),
    ("turn:equip:branch:1fdeef90", "equipping a Ship enhancer fitted to a Ship", "crashed"),
    # An item already equipped is then refused as one the player lacks.
    ("turn:equip:branch:f01d91d2", "equipping an item already equipped", "refused as"),
    ("state:Game.draw:branch:3d69e066", "drawing with the deck and its discards empty", "crashed"),
    # Without its own test, looting an empty deck is refused by the draw, in the draw's words.
    (
        "turn:loot_room:branch:bc570be0",
        "looting the room with the deck and its discards empty",
        "refused as",
    ),
]


@pytest.mark.parametrize(("mutant_id", "name", "how"), CASES)
def test_a_refusal_fails_without_its_guard(mutant_id: str, name: str, how: str) -> None:
    assert _check(name).status == "pass"
    with planted(mutant_id):
        report = _check(name)
    assert report.status == "fail"
    assert any(how in message for message in report.messages), report.messages
    assert not report.verified


def test_every_refusal_is_planted_against() -> None:
    assert {name for _, name, _ in CASES} == {r.name for r in REFUSALS}


def test_a_move_that_changes_the_game_fails_even_with_the_reason_given() -> None:
    """The contract's second half: a refusal must leave the game as it was. A move that
    discards a card and then raises the expected reason is caught by the snapshot."""

    def discard_then_refuse(game: Game) -> None:
        game.discard(game.players[0].hand.pop())
        raise RuleViolation("name the items to sell")

    base = _refusal("selling nothing")
    broken = Refusal(base.name, base.table, discard_then_refuse, base.reason)
    report = check_refusal(broken, LANGUAGE_SET)
    assert report.status == "fail"
    assert any("changed the game" in m for m in report.messages), report.messages


def test_a_table_whose_setting_step_is_refused_is_an_error_naming_the_step() -> None:
    document = parse_scenario(
        {
            "name": "equip what is not held",
            "cards": [
                {
                    "name": "Refusal Trinket",
                    "deck": "treasure",
                    "kind": "item",
                    "slot": "other",
                    "gold": 600,
                    "encoding": {"status": "full"},
                }
            ],
            "players": [{"name": "Hero"}, {"name": "Rival", "hand": ["Refusal Trinket"]}],
            "steps": [{"sell": ["Refusal Trinket"], "by": "Rival"}],
        }
    )
    with pytest.raises(ScenarioError) as raised:
        scenario_game(document)
    assert "steps[0]" in str(raised.value)
    assert "only on your own turn" in str(raised.value)
