"""export_set CODE --fixture: an official set as fixtures/sets/ holds it, with its sources and
each card's provenance, the contributions curators accepted included (issue 18, point 6)."""

import datetime
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from catalog.models import Card, CardRevision, CardSet
from catalog.services import card_write, catalog_load, set_create
from contributions.services import proposal_accept, proposal_create
from tests.catalog.conftest import card_doc, database_snapshot
from tests.conftest import FIXTURE_SETS
from validator.engine import dump_card, load_set_file, parse_card, provenance_dump, read_yaml

pytestmark = pytest.mark.django_db

SOURCES = [
    {"id": "rulebook", "kind": "rulebook", "title": "The test set's rules", "seed": "001.txt"},
    {"id": "review", "kind": "web", "title": "A review", "url": "https://example.org/review"},
]
OGRE_PROVENANCE = {"sources": ["review", "rulebook"], "confidence": "medium"}
RAT_PROVENANCE = {"sources": ["review"], "confidence": "low", "name_uncertain": True}
EVIDENCE = "The Treasures printed on my copy, second printing"

WriteSet = Callable[..., Path]
Accept = Callable[..., Card]


def export(code: str, *flags: str) -> str:
    out = io.StringIO()
    call_command("export_set", code, *flags, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def export_to(tmp_path: Path, code: str, name: str = "exported.yaml") -> Path:
    path = tmp_path / name
    call_command("export_set", code, "--fixture", "-o", str(path), stderr=io.StringIO())
    return path


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", is_staff=True)


@pytest.fixture
def loaded(write_set: WriteSet) -> CardSet:
    """An official test set loaded from a file with sources and provenance: Test Ogre
    (Treasures 2), Tiny Rat (a provisional name) and Plain Ogre (no provenance)."""
    path = write_set(
        [
            {**card_doc(), "provenance": OGRE_PROVENANCE},
            {**card_doc("Tiny Rat", level=1, treasures=1), "provenance": RAT_PROVENANCE},
            card_doc("Plain Ogre", level=3, treasures=1),
        ],
        sources=SOURCES,
        official=True,
    )
    catalog_load(paths=[path])
    return CardSet.objects.get(code="test-set")


@pytest.fixture
def contributed(loaded: CardSet, accept_contribution: Accept, alice: User, carol: User) -> Card:
    """alice's proposal #7, Test Ogre's Treasures are 3, accepted by carol (revision 2)."""
    ogre = Card.objects.get(card_set=loaded, name="Test Ogre")
    return accept_contribution(
        ogre, card_doc(treasures=3), proposer=alice, curator=carol, evidence=EVIDENCE
    )


def test_the_fixture_export_writes_sources_provenance_and_the_contribution(
    tmp_path: Path, contributed: Card
) -> None:
    path = export_to(tmp_path, "test-set")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Set test-set, exported with provenance from the ")

    document = load_set_file(path)  # parses as a set file, provenance and all
    assert [s.model_dump(exclude_none=True) for s in document.sources] == SOURCES
    ogre = next(c for c in document.cards if c.name == "Test Ogre")
    assert dump_card(ogre) == card_doc(treasures=3)  # the value it contributed
    accepted_on = CardRevision.objects.get(card=contributed, number=2).changed_at
    assert provenance_dump(document.provenance["Test Ogre"]) == {
        **OGRE_PROVENANCE,
        "contributions": [
            {
                "revision": 2,
                "proposer": "alice",
                "curator": "carol",
                "accepted_on": accepted_on.astimezone(datetime.UTC).date().isoformat(),
                "proposal": 7,
                "fields": ["treasures"],
            }
        ],
    }
    assert provenance_dump(document.provenance["Tiny Rat"]) == RAT_PROVENANCE
    assert "Plain Ogre" not in document.provenance
    # In the file: sources after the set, each card's provenance after its document.
    data = read_yaml(text).data
    assert list(data) == ["language", "set", "sources", "cards"]
    assert list(data["cards"][0])[-1] == "provenance"
    assert "provenance" not in data["cards"][2]


def test_the_fixture_export_loads_back_with_no_change(tmp_path: Path, contributed: Card) -> None:
    path = export_to(tmp_path, "test-set")
    before = database_snapshot()
    provenance = dict(Card.objects.values_list("name", "provenance"))
    report = catalog_load(paths=[path])
    assert not report.changed and report.conflicts == []
    assert report.sets[0].unchanged == ["Test Ogre", "Tiny Rat", "Plain Ogre"]
    assert database_snapshot() == before
    assert dict(Card.objects.values_list("name", "provenance")) == provenance
    # Exported again: the same bytes.
    assert export_to(tmp_path, "test-set", "again.yaml").read_bytes() == path.read_bytes()


def test_a_contribution_the_file_records_is_written_once(tmp_path: Path, contributed: Card) -> None:
    first = export_to(tmp_path, "test-set")
    # A file that records the contribution, loaded where the card is at another revision,
    # writes the provenance; the revision row records the same contribution again.
    recorded = provenance_dump(load_set_file(first).provenance["Test Ogre"])
    Card.objects.filter(pk=contributed.pk).update(provenance=recorded)
    assert export_to(tmp_path, "test-set", "again.yaml").read_bytes() == first.read_bytes()


def test_the_fixture_export_into_an_empty_database_keeps_the_contribution(
    tmp_path: Path, contributed: Card
) -> None:
    path = export_to(tmp_path, "test-set")
    Card.everything.all().delete()
    CardSet.everything.all().delete()
    catalog_load(paths=[path])
    ogre = Card.objects.get(name="Test Ogre")
    assert (ogre.treasures, ogre.revision) == (3, 1)
    (contribution,) = ogre.provenance["contributions"]
    assert (contribution["proposer"], contribution["proposal"]) == ("alice", 7)
    # The new database exports what the first did.
    assert export_to(tmp_path, "test-set", "again.yaml").read_bytes() == path.read_bytes()


def test_without_fixture_the_export_is_the_plain_set_file(contributed: Card) -> None:
    text = export("test-set")
    assert text.startswith("# Set test-set, exported from the ")
    data = read_yaml(text).data
    assert list(data) == ["language", "set", "cards"]
    assert all("provenance" not in card for card in data["cards"])


def test_a_new_card_contribution_changed_every_key(
    tmp_path: Path, loaded: CardSet, alice: User, carol: User
) -> None:
    document = card_doc("Proposed Ogre", level=4, treasures=1)
    card_write(
        card_set=loaded,
        typed=parse_card(document),
        actor=carol,
        source="proposal #9",
        proposed_by=alice,
        evidence="Seen at a convention",
    )
    exported = load_set_file(export_to(tmp_path, "test-set"))
    (contribution,) = exported.provenance["Proposed Ogre"].contributions
    assert (contribution.revision, contribution.proposal) == (1, 9)
    assert contribution.fields == sorted(document)


def test_the_issues_example_generic_guys_treasures(
    tmp_path: Path, accept_contribution: Accept, alice: User, carol: User
) -> None:
    """Done when: a curator accepts Generic Guy's Treasures; export_set munchkin-super
    --fixture writes the new value with its contribution, and it loads back unchanged."""
    super_set = FIXTURE_SETS / "munchkin-super.yaml"
    catalog_load(paths=[super_set])
    guy = Card.objects.get(card_set__code="munchkin-super", name="Generic Guy")
    assert guy.treasures is None  # the issue: "Generic Guy: Treasures unknown"
    proposed: dict[str, Any] = {**guy.document, "treasures": 2}
    accept_contribution(guy, proposed, proposer=alice, curator=carol, proposal=1)

    path = export_to(tmp_path, "munchkin-super")
    exported = load_set_file(path)
    written = next(c for c in exported.cards if c.name == "Generic Guy")
    assert dump_card(written)["treasures"] == 2
    (contribution,) = exported.provenance["Generic Guy"].contributions
    assert (contribution.proposer, contribution.curator, contribution.fields) == (
        "alice",
        "carol",
        ["treasures"],
    )
    assert [s.id for s in exported.sources] == [s.id for s in load_set_file(super_set).sources]
    assert not catalog_load(paths=[path]).changed


def test_a_custom_set_is_refused(alice: User) -> None:
    set_create(owner=alice, code="dungeon", name="Alice's Dungeon")
    with pytest.raises(CommandError, match=r"'alice-dungeon' is a custom set: --fixture"):
        export("alice-dungeon", "--fixture")
    assert export("alice-dungeon").startswith("# Set alice-dungeon, exported from")


def test_an_unknown_code_names_the_nearest(loaded: CardSet) -> None:
    with pytest.raises(CommandError) as caught:
        export("test-sett", "--fixture")
    assert str(caught.value) == "no set with the code 'test-sett'; did you mean 'test-set'?"


def test_a_stat_guessed_from_the_name_is_exported_as_a_guess(
    tmp_path: Path, write_set: WriteSet
) -> None:
    """`field_confidence` (a slot guessed from the card's name) is part of the provenance: the
    export writes it back, where a YAML comment would be lost, and it loads back unchanged."""
    hat = {
        "name": "Guessing Hat",
        "deck": "treasure",
        "kind": "item",
        "slot": "headgear",
        "bonus": None,
        "gold": None,
        "notes": "Headgear by its name; nothing else is known.",
        "encoding": {"status": "text_only", "reason": "its bonus and Gold are not known"},
        "provenance": {
            "sources": ["rulebook"],
            "confidence": "low",
            "field_confidence": {"slot": "inferred"},
        },
    }
    catalog_load(paths=[write_set([hat], sources=SOURCES, official=True)])
    assert Card.objects.get(name="Guessing Hat").provenance["field_confidence"] == {
        "slot": "inferred"
    }
    exported = export_to(tmp_path, "test-set")
    data = read_yaml(exported.read_text(encoding="utf-8")).data
    assert data["cards"][0]["provenance"]["field_confidence"] == {"slot": "inferred"}
    assert load_set_file(exported).provenance["Guessing Hat"].field_confidence == {
        "slot": "inferred"
    }
    assert not catalog_load(paths=[exported]).changed


def test_a_guess_about_a_stat_the_card_does_not_give_is_refused(write_set: WriteSet) -> None:
    ogre = {
        **card_doc(),
        "provenance": {"sources": ["rulebook"], "field_confidence": {"slot": "inferred"}},
    }
    with pytest.raises(Exception, match="no value for 'slot'"):
        load_set_file(write_set([ogre], sources=SOURCES, official=True))


@pytest.mark.parametrize("path", sorted(FIXTURE_SETS.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_official_set_file_is_its_own_fixture_export(path: Path, tmp_path: Path) -> None:
    """Loaded from fixtures/sets/ and exported with provenance, a set gives back its file's
    data, comments aside: the project's own files are in the form the export writes, so a
    review's export changes only what the review changed."""
    catalog_load(paths=[path])
    exported = export_to(tmp_path, path.stem)
    assert (
        read_yaml(exported.read_text(encoding="utf-8")).data
        == read_yaml(path.read_text(encoding="utf-8")).data
    )
    assert not catalog_load(paths=[exported]).changed


def test_a_proposal_accepted_through_the_review_is_exported(
    tmp_path: Path, loaded: CardSet, alice: User, carol: User
) -> None:
    """The contributions app's own accept (not a stand-in) is what the export reads."""
    ogre = Card.objects.get(card_set=loaded, name="Test Ogre")
    proposal = proposal_create(
        proposer=alice,
        card_set=loaded,
        card=ogre,
        base_revision=ogre.revision,
        document=card_doc(treasures=3),
        evidence=EVIDENCE,
    )
    proposal_accept(proposal=proposal, curator=carol)
    path = export_to(tmp_path, "test-set")
    exported = load_set_file(path)
    assert dump_card(next(c for c in exported.cards if c.name == "Test Ogre"))["treasures"] == 3
    (contribution,) = exported.provenance["Test Ogre"].contributions
    assert (
        contribution.proposal,
        contribution.proposer,
        contribution.curator,
        contribution.evidence,
        contribution.fields,
    ) == (proposal.pk, "alice", "carol", None, ["treasures"])
    # The evidence note is private to the proposer and the curators: never in a set file.
    assert EVIDENCE not in path.read_text(encoding="utf-8")
    assert not catalog_load(paths=[path]).changed
