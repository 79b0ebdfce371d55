"""load_catalog: idempotent upserts, and bad input that leaves the database as it was."""

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from catalog.models import Card, CardRevision, CardSet, CardTag
from catalog.services import catalog_load
from tests.catalog.conftest import card_doc, database_snapshot
from tests.conftest import CORE_SET

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("load_catalog", *args, stdout=out, stderr=out)
    return out.getvalue()


def run_failing(*args: str) -> tuple[str, str]:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("load_catalog", *args, stdout=io.StringIO(), stderr=err)
    return err.getvalue(), str(caught.value)


def test_loads_the_whole_core_set() -> None:
    output = run(str(CORE_SET))
    assert "munchkin-core: 147 created, 0 updated, 0 unchanged" in output
    core = CardSet.objects.get(code="munchkin-core")
    assert core.cards_in_box == 168
    assert Card.objects.filter(card_set=core).count() == 147
    copies = {deck: 0 for deck in ("door", "treasure")}
    for card in Card.objects.filter(card_set=core):
        copies[card.deck] += card.copies or 0
    assert copies == {"door": 95, "treasure": 73}


def test_default_paths_are_every_fixture_file() -> None:
    output = run()
    assert "munchkin-core: 147 created" in output


def test_second_run_changes_nothing() -> None:
    run(str(CORE_SET))
    before = database_snapshot()
    output = run(str(CORE_SET))
    assert "munchkin-core: 0 created, 0 updated, 147 unchanged" in output
    assert database_snapshot() == before


def test_columns_are_derived_from_the_document() -> None:
    run(str(CORE_SET))
    troll = Card.objects.get(name="Net Troll")
    assert (troll.kind, troll.deck, troll.level, troll.treasures) == ("monster", "door", 10, 3)
    assert troll.document["level"] == 10 and troll.text.startswith("Level 10 monster")
    chainsaw = Card.objects.get(name="Chainsaw of Bloody Dismemberment")
    assert (chainsaw.slot, chainsaw.big, chainsaw.bonus, chainsaw.gold) == (
        "two_hands",
        True,
        3,
        600,
    )
    assert set(CardTag.objects.filter(card=chainsaw).values_list("tag", flat=True)) >= {"big"}
    tut = Card.objects.get(name="King Tut")
    assert "undead" in tut.tags
    assert CardTag.objects.filter(card=tut, tag="undead").exists()


def test_a_changed_card_is_updated_and_keeps_a_revision(write_set: Callable[..., Path]) -> None:
    run(str(write_set([card_doc(), card_doc("Other Ogre")])))
    original = Card.objects.get(name="Test Ogre").document
    output = run(str(write_set([card_doc(level=9), card_doc("Other Ogre")])))
    assert "test-set: 0 created, 1 updated, 1 unchanged" in output
    card = Card.objects.get(name="Test Ogre")
    assert card.level == 9
    second, first = CardRevision.objects.filter(card=card)  # newest first
    assert (first.number, second.number, card.revision) == (1, 2, 2)
    assert first.document == original and second.document == card.document
    assert second.source.startswith("load_catalog")


def test_check_reports_and_writes_nothing(write_set: Callable[..., Path]) -> None:
    path = write_set([card_doc()])
    output = run("--check", str(path))
    assert "check only, nothing written" in output and "1 would be created" in output
    assert not CardSet.objects.exists()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("set: {code: broken, name: Broken\ncards: []\n", ":2: YAML syntax"),
        (
            "set: {code: broken, name: Broken}\ncards:\n  - name: Ogre\n    deck: door\n"
            "    kind: monster\n    levle: 3\n    treasures: 1\n    encoding: {status: full}\n",
            ":6: cards[0].levle: unknown key 'levle'; did you mean 'level'?",
        ),
        (
            "set: {code: broken, name: Broken}\ncards:\n  - name: Ogre\n    deck: door\n"
            "    kind: monster\n    level: ten\n    treasures: 1\n    encoding: {status: full}\n",
            ":6: cards[0].level: Input should be a valid integer",
        ),
        (
            "set: {code: broken, name: Broken}\ncards:\n"
            "  - {name: Ogre, deck: door, kind: monster, level: 1, treasures: 1,\n"
            "     encoding: {status: full}}\n"
            "  - {name: Ogre, deck: door, kind: monster, level: 2, treasures: 1,\n"
            "     encoding: {status: full}}\n",
            ":5: cards[1].name: duplicate card 'Ogre'",
        ),
    ],
    ids=["yaml-syntax", "unknown-key", "wrong-type", "duplicate-card"],
)
def test_bad_input_names_file_line_and_path_and_writes_nothing(
    tmp_path: Path, write_set: Callable[..., Path], content: str, expected: str
) -> None:
    run(str(CORE_SET))
    before = database_snapshot()
    good = write_set([card_doc()], code="good-set")
    bad = tmp_path / "broken.yaml"
    bad.write_text(content)
    stderr, message = run_failing(str(good), str(bad))
    assert f"{bad}{expected}" in stderr, stderr
    assert "nothing was written" in message
    assert database_snapshot() == before
    assert not CardSet.objects.filter(code="good-set").exists()


def test_a_misspelt_key_in_the_core_fixture_is_refused(tmp_path: Path) -> None:
    lines = CORE_SET.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.strip() == "kind: monster")
    lines[index] = lines[index].replace("kind:", "kidn:")
    broken = tmp_path / "munchkin-core.yaml"
    broken.write_text("".join(lines))
    stderr, _ = run_failing(str(broken))
    assert f"{broken}:{index + 1}: cards[" in stderr and "unknown key 'kidn'" in stderr
    assert not CardSet.objects.exists()


def test_the_same_set_in_two_files_is_refused(write_set: Callable[..., Path]) -> None:
    first = write_set([card_doc()], code="twin", filename="a.yaml")
    second = write_set([card_doc("Other")], code="twin", filename="b.yaml")
    stderr, _ = run_failing(str(first), str(second))
    assert "set 'twin' is also defined in" in stderr
    assert not CardSet.objects.exists()


def test_cards_missing_from_a_file_are_kept(write_set: Callable[..., Path]) -> None:
    run(str(write_set([card_doc(), card_doc("Other Ogre")])))
    report = catalog_load(paths=[write_set([card_doc()])])
    assert report.sets[0].unchanged == ["Test Ogre"]
    assert Card.objects.filter(name="Other Ogre").exists()


def test_missing_path_is_a_clear_error() -> None:
    _, message = run_failing("/nonexistent/set.yaml")
    assert "no such file" in message
