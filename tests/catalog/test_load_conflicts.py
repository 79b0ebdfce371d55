"""load_catalog and accepted contributions: a file that differs from one is reported, per key
with both values, and the card is left alone unless --prefer-fixture (issue 18, point 6)."""

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from catalog.models import Card, CardRevision
from catalog.services import LoadConflict, card_update, catalog_load
from tests.catalog.conftest import card_doc, database_snapshot

pytestmark = pytest.mark.django_db

SOURCES = [
    {"id": "rulebook", "kind": "rulebook", "title": "The test set's rules"},
    {"id": "review", "kind": "web", "title": "A review", "url": "https://example.org/review"},
]
# What the set file says of Test Ogre's provenance, before any contribution.
OGRE_PROVENANCE = {"sources": ["review"], "confidence": "medium"}

WriteSet = Callable[..., Path]
Accept = Callable[..., Card]


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("load_catalog", *args, stdout=out, stderr=out)  # raises on a non-zero exit
    return out.getvalue()


def set_file(write_set: WriteSet, ogre: dict[str, Any], **provenance: Any) -> Path:
    """The test set: Test Ogre (as given, with its provenance) and Other Ogre."""
    return write_set(
        [
            {**ogre, "provenance": {**OGRE_PROVENANCE, **provenance}},
            card_doc("Other Ogre", level=3, treasures=1),
        ],
        sources=SOURCES,
        official=True,
    )


@pytest.fixture
def carol(db: None) -> User:
    """A curator: accepting is a curator's act, whoever proposed."""
    return User.objects.create_user("carol", is_staff=True)


@pytest.fixture
def contributed(write_set: WriteSet, accept_contribution: Accept, alice: User, carol: User) -> Card:
    """Test Ogre loaded from its file at Treasures 2 (revision 1), then alice's proposal #7
    saying its Treasures are 3, accepted by carol (revision 2)."""
    run(str(set_file(write_set, card_doc())))
    ogre = Card.objects.get(name="Test Ogre")
    return accept_contribution(ogre, card_doc(treasures=3), proposer=alice, curator=carol)


def test_a_differing_file_is_reported_with_both_values_and_the_card_left_alone(
    write_set: WriteSet, contributed: Card
) -> None:
    # The file moves the Level (the contribution kept it) and the Treasures (it changed them),
    # and its provenance grows more confident; Other Ogre changes too.
    path = write_set(
        [
            {**card_doc(level=8, treasures=4), "provenance": {"confidence": "high"}},
            card_doc("Other Ogre", level=5, treasures=1),
        ],
        sources=SOURCES,
        official=True,
    )
    output = run(str(path))

    assert (
        "test-set: Test Ogre: treasures: database 3 (accepted proposal #7 by alice), fixture 4 "
        "— kept the database's; --prefer-fixture to take the file's"
    ) in output
    # The Level the contribution did not touch is credited to the revision the load wrote.
    assert "test-set: Test Ogre: level: database 7 (revision 1), fixture 8 — kept" in output
    assert "test-set: 0 created, 1 updated, 0 unchanged, 1 kept for accepted contributions" in (
        output
    )
    ogre = Card.objects.get(name="Test Ogre")
    assert (ogre.level, ogre.treasures, ogre.revision) == (7, 3, 2)
    assert ogre.document == card_doc(treasures=3)
    assert ogre.provenance == OGRE_PROVENANCE
    assert CardRevision.objects.filter(card=ogre).count() == 2
    # The rest of the set loads as usual.
    assert Card.objects.get(name="Other Ogre").level == 5


def test_the_report_holds_typed_conflicts(write_set: WriteSet, contributed: Card) -> None:
    report = catalog_load(paths=[set_file(write_set, card_doc(treasures=4))])
    (one,) = report.sets
    assert one.kept == ["Test Ogre"] and one.overridden == [] and one.updated == []
    assert report.conflicts == [
        LoadConflict(
            card="Test Ogre",
            field="treasures",
            database=3,
            fixture=4,
            origin="accepted proposal #7 by alice",
            taken="database",
        )
    ]
    assert not report.changed


def test_a_key_the_file_lacks_is_reported_as_null(
    write_set: WriteSet, accept_contribution: Accept, alice: User, carol: User
) -> None:
    run(str(set_file(write_set, card_doc())))
    ogre = Card.objects.get(name="Test Ogre")
    accept_contribution(ogre, card_doc(tags=["undead"]), proposer=alice, curator=carol)
    output = run(str(set_file(write_set, card_doc(level=9))))
    assert (
        'test-set: Test Ogre: tags: database ["undead"] (accepted proposal #7 by alice), '
        "fixture null — kept the database's"
    ) in output
    assert Card.objects.get(name="Test Ogre").tags == ["undead"]


def test_a_second_run_reports_the_same_and_changes_nothing(
    write_set: WriteSet, contributed: Card
) -> None:
    path = set_file(write_set, card_doc(treasures=4))
    first = run(str(path))
    before = database_snapshot()
    assert run(str(path)) == first
    assert database_snapshot() == before


def test_prefer_fixture_writes_the_files_version_as_a_new_revision(
    write_set: WriteSet, contributed: Card
) -> None:
    path = set_file(write_set, card_doc(treasures=4), confidence="high")
    output = run("--prefer-fixture", str(path))
    assert (
        "test-set: Test Ogre: treasures: database 3 (accepted proposal #7 by alice), fixture 4 "
        "— took the file's (--prefer-fixture)"
    ) in output
    assert "test-set: Test Ogre: --prefer-fixture: the file's version replaced an accepted" in (
        output
    )
    ogre = Card.objects.get(name="Test Ogre")
    assert (ogre.treasures, ogre.revision) == (4, 3)
    assert ogre.provenance == {"sources": ["review"], "confidence": "high"}
    newest, accepted, _first = CardRevision.objects.filter(card=ogre)  # newest first
    assert newest.source.startswith("load_catalog") and newest.proposed_by is None
    # The contribution stays in the history.
    assert (accepted.number, accepted.document["treasures"], accepted.proposed_by) == (
        2,
        3,
        User.objects.get(username="alice"),
    )


def test_once_the_file_replaced_a_contribution_later_file_changes_flow(
    write_set: WriteSet, contributed: Card, accept_contribution: Accept, bob: User, carol: User
) -> None:
    run("--prefer-fixture", str(set_file(write_set, card_doc(treasures=4))))
    output = run(str(set_file(write_set, card_doc(treasures=5))))
    assert "test-set: 0 created, 1 updated, 1 unchanged" in output and "kept" not in output
    assert Card.objects.get(name="Test Ogre").treasures == 5
    # A contribution accepted after that load is held again.
    accept_contribution(
        Card.objects.get(name="Test Ogre"),
        card_doc(treasures=6),
        proposer=bob,
        curator=carol,
        proposal=12,
    )
    output = run(str(set_file(write_set, card_doc(treasures=5))))
    assert "treasures: database 6 (accepted proposal #12 by bob), fixture 5" in output
    assert Card.objects.get(name="Test Ogre").treasures == 6


def test_a_file_equal_to_the_contribution_is_unchanged(
    write_set: WriteSet, contributed: Card
) -> None:
    before = database_snapshot()
    report = catalog_load(paths=[set_file(write_set, card_doc(treasures=3))])
    assert report.sets[0].unchanged == ["Test Ogre", "Other Ogre"]
    assert report.conflicts == [] and not report.changed
    assert database_snapshot() == before


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ((), "— would keep the database's; --prefer-fixture to take the file's"),
        (("--prefer-fixture",), "— would take the file's (--prefer-fixture)"),
    ],
    ids=["keep", "prefer-fixture"],
)
def test_check_reports_conflicts_and_writes_nothing(
    write_set: WriteSet, contributed: Card, flags: tuple[str, ...], expected: str
) -> None:
    before = database_snapshot()
    output = run("--check", *flags, str(set_file(write_set, card_doc(treasures=4))))
    assert "test-set (check only, nothing written)" in output
    assert f"treasures: database 3 (accepted proposal #7 by alice), fixture 4 {expected}" in (
        output
    )
    assert database_snapshot() == before
    assert Card.objects.get(name="Test Ogre").revision == 2


def test_a_deleted_proposers_contribution_is_still_held(
    write_set: WriteSet, contributed: Card, alice: User
) -> None:
    alice.delete()  # the revision's proposer becomes null; its source still names the proposal
    output = run(str(set_file(write_set, card_doc(treasures=4))))
    assert "database 3 (accepted proposal #7 by a deleted account), fixture 4" in output
    assert Card.objects.get(name="Test Ogre").treasures == 3


def test_an_editor_save_without_a_proposer_is_overwritten_as_before(
    write_set: WriteSet, carol: User
) -> None:
    """A set without accepted contributions loads exactly as before issue 18: the file wins."""
    run(str(set_file(write_set, card_doc())))
    ogre = Card.objects.get(name="Test Ogre")
    card_update(card=ogre, actor=carol, document=card_doc(treasures=3), base_revision=1)
    output = run(str(set_file(write_set, card_doc(treasures=4))))
    assert "test-set: 0 created, 1 updated, 1 unchanged\n" in output
    assert "database" not in output
    ogre = Card.objects.get(name="Test Ogre")
    assert (ogre.treasures, ogre.revision) == (4, 3)
