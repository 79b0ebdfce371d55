"""The scenario runner: every shipped scenario passes; bad scenarios say where and what."""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.engine.conftest import run, scenario
from validator.engine.scenario import (
    ScenarioError,
    parse_scenario,
    run_scenario_file,
    scenario_files,
)
from validator.engine.scenario.__main__ import main

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
FILES = scenario_files([SCENARIOS])


def test_there_are_enough_core_scenarios() -> None:
    core = [f for f in FILES if f.parent.name == "munchkin-core"]
    assert len(core) >= 41
    assert any(f.name == "rulebook-combat-example.yaml" for f in core)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_shipped_scenario_passes(path: Path) -> None:
    result = run_scenario_file(path)
    assert result.passed, result.line()


def test_the_rulebook_example_computes_every_value() -> None:
    result = run_scenario_file(SCENARIOS / "munchkin-core" / "rulebook-combat-example.yaml")
    values = result.values
    assert (values["fighter_strength"], values["monster_strength"]) == (15, 15)
    assert values["outcome"] == "won" and values["treasures_drawn"] == 4
    assert values["levels"] == {"Aric": 5, "Suzan": 2}


def test_a_wrong_expectation_fails_with_the_computed_value() -> None:
    result = run(
        scenario(
            combat={"fighter": "Aric", "monsters": ["Lame Goblin"]},
            steps=[{"resolve": True}],
            expect={"outcome": "won", "levels": {"Aric": 9}},
        )
    )
    assert not result.passed
    assert result.failures == ["levels.Aric: expected 9, got 5"]


def test_inline_cards_are_found_before_the_sets() -> None:
    ogre = {
        "name": "Test Ogre",
        "deck": "door",
        "kind": "monster",
        "level": 3,
        "treasures": 2,
        "encoding": {"status": "full"},
    }
    result = run(
        scenario(
            cards=[ogre],
            combat={"fighter": "Aric", "monsters": ["Test Ogre"]},
            deck={"treasure": ["Sleep Potion", "Magic Lamp"]},
            steps=[{"resolve": True}],
            expect={"outcome": "won", "treasures_drawn": 2, "fighter_strength": 4},
        )
    )
    assert result.passed, result.failures


def test_a_pack_file_supplies_the_cards(tmp_path: Path) -> None:
    ogre = {
        "name": "Pack Ogre",
        "deck": "door",
        "kind": "monster",
        "level": 1,
        "treasures": 1,
        "encoding": {"status": "full"},
    }
    from validator.engine.cards import parse_card
    from validator.engine.pack import build_pack, pack_json

    pack = tmp_path / "pack.json"
    data = build_pack(
        name="tiny",
        sets=[({"code": "tiny", "name": "Tiny"}, [parse_card(ogre)])],
        decks={"door": [("tiny", "Pack Ogre", 1)]},
    )
    pack.write_bytes(pack_json(data))
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: from a pack\npack: pack.json\nplayers: [{name: A, level: 2}]\n"
        "combat: {fighter: A, monsters: [Pack Ogre]}\nsteps: [{resolve: true}]\n"
        "expect: {outcome: won, levels: {A: 3}}\n"
    )
    result = run_scenario_file(path)
    assert result.passed, result.line()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "name: x\nsets: [munchkin-core]\nplayers: [{name: A, in_play: [Net Trol]}]\n",
            ":3: players[0].in_play[0]: unknown card 'Net Trol'; did you mean 'Net Troll'?",
        ),
        (
            "name: x\nsets: [munchkin-core]\nplayers: [{name: A}]\nsteps:\n  - {kick_door: Aa}\n",
            ":5: steps[0].kick_door: unknown player 'Aa'",
        ),
        (
            "name: x\nsets: [munchkin-core]\nplayers: [{name: A}]\nsteps:\n  - {kick_dor: A}\n",
            ":5: steps[0]",
        ),
        (
            "name: x\nsets: [munchkin-core]\nplayers: [{name: A, levle: 3}]\n",
            ":3: players[0].levle: unknown key 'levle'; did you mean 'level'?",
        ),
        (
            "name: x\nsets: [munchkin-core]\nplayers: [{name: A}]\nexpect: {outcome: wonn}\n",
            ":4: expect.outcome: 'wonn' is not one of",
        ),
        ("name: x\nsets: [munchkin-cor]\nplayers: [{name: A}]\n", ":2: sets: unknown set"),
    ],
    ids=["card", "player", "step", "key", "value", "set"],
)
def test_bad_scenarios_name_file_line_and_nearest_word(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    result = run_scenario_file(path)
    assert not result.passed
    assert any(f"{path}{expected}" in failure for failure in result.failures), result.failures


def test_an_unknown_step_suggests_the_nearest_one() -> None:
    with pytest.raises(ScenarioError, match="did you mean 'kick_door'"):
        parse_scenario(scenario(steps=[{"kick_dor": "Aric"}]))


@pytest.mark.parametrize(
    ("steps", "refusal"),
    [
        ([{"sell": ["Mace of Sharpness"], "by": "Aric"}], "sold during combat"),
        ([{"help": "Suzan"}, {"help": "Suzan"}], "only one player can help"),
        ([{"play": "Potion of General Studliness", "by": "Aric"}], "winning level"),
    ],
)
def test_a_refused_step_changes_nothing(steps: list[dict[str, Any]], refusal: str) -> None:
    document = scenario(
        players=[
            {
                "name": "Aric",
                "level": 9,
                "hand": ["Mace of Sharpness", "Potion of General Studliness"],
            },
            {"name": "Suzan"},
        ],
        combat={"fighter": "Aric", "monsters": ["Lame Goblin"]},
        steps=steps,
        expect={"error": refusal},
    )
    result = run(document)
    assert result.passed, result.failures
    assert refusal in result.values["error"] or refusal in result.values["error"].lower()
    unrefused = run({**document, "expect": {}})
    assert not unrefused.passed and unrefused.failures[0].startswith("step refused")


def test_an_expected_refusal_that_does_not_happen_fails() -> None:
    result = run(scenario(expect={"error": True}))
    assert result.failures == ["error: expected a step to be refused, but every step was allowed"]


def test_command_line_runner(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([str(SCENARIOS / "munchkin-core" / "rulebook-combat-example.yaml")]) == 0
    assert "PASS Aric fights the Net Troll" in capsys.readouterr().out
    assert main(["--json", str(SCENARIOS / "munchkin-core" / "rulebook-combat-example.yaml")]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["passed"] and line["values"]["fighter_strength"] == 15
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nplayers: []\n")
    assert main([str(bad)]) == 1


def test_a_name_listed_twice_on_a_deck_is_two_copies_on_top() -> None:
    # Three copies of Halfling in the core set: two listed are the top two, then the curse.
    result = run(
        scenario(
            players=[{"name": "Aric"}, {"name": "Suzan", "sex": "female"}],
            deck={"door": ["Halfling", "Halfling", "Curse! Change Sex"]},
            steps=[
                {"kick_door": "Aric"},  # a race face up: to the hand
                {"loot_room": "Aric"},  # the second copy, face down
                {"play": "Halfling", "by": "Aric"},
                {"end_turn": True},
                {"kick_door": "Suzan"},  # the curse hits whoever opens it
            ],
            expect={
                "in_play": {"Aric": ["Halfling"]},
                "hand_sizes": {"Aric": 1},
                "sex": {"Suzan": "male"},
            },
        )
    )
    assert result.passed, result.failures
    assert "Suzan kicks open the door: Curse! Change Sex" in result.values["log"]


def test_a_charity_step_gives_the_named_card_to_the_lowest_level() -> None:
    hand = ["Halfling", "Elf", "Dwarf", "Wizard", "Thief", "Cleric", "Warrior"]
    # The rulebook's charity: over five cards, the extra go to the lowest-Level player.
    given = run(
        scenario(
            players=[{"name": "Aric", "level": 4, "hand": hand}, {"name": "Suzan"}],
            steps=[{"charity": "Warrior", "by": "Aric"}],
            expect={"hand_sizes": {"Aric": 6, "Suzan": 1}},
        )
    )
    assert given.passed, given.failures
    for steps, error in (
        ([{"charity": "Elf", "by": "Suzan"}], "only on your own turn"),
        (
            [{"charity": name, "by": "Aric"} for name in ("Warrior", "Cleric", "Thief")],
            "over the hand limit of 5",
        ),
    ):
        refused = run(
            scenario(
                players=[
                    {"name": "Aric", "level": 4, "hand": hand},
                    {"name": "Suzan", "hand": ["Elf"]},
                ],
                steps=steps,
                expect={"error": error},
            )
        )
        assert refused.passed, refused.failures


def test_hand_expectations_name_cards_still_in_or_gone_from_a_hand() -> None:
    # Aric sells the Flaming Armor (400 Gold), the Boots of Butt-Kicking (400) and the Helm of
    # Courage (200): 1,000 Gold, a level; the Magic Missile he keeps stays in his hand.
    document = scenario(
        players=[
            {
                "name": "Aric",
                "level": 4,
                "hand": [
                    "Flaming Armor",
                    "Boots of Butt-Kicking",
                    "Helm of Courage",
                    "Magic Missile",
                ],
            },
            {"name": "Suzan", "sex": "female"},
        ],
        steps=[
            {"sell": ["Flaming Armor", "Boots of Butt-Kicking", "Helm of Courage"], "by": "Aric"}
        ],
        expect={
            "in_hand": {"Aric": ["Magic Missile"]},
            "not_in_hand": {"Aric": ["Flaming Armor", "Boots of Butt-Kicking"]},
            "levels": {"Aric": 5},
        },
    )
    result = run(document)
    assert result.passed, result.failures
    assert result.values["hands"] == {"Aric": ["Magic Missile"], "Suzan": []}
    wrong = run({**document, "expect": {"in_hand": {"Aric": ["Flaming Armor"]}}})
    assert wrong.failures == ["in_hand.Aric: Flaming Armor is not there"]
    kept = run({**document, "expect": {"not_in_hand": {"Aric": ["Magic Missile"]}}})
    assert kept.failures == ["not_in_hand.Aric: Magic Missile is still there"]
