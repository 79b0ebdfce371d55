"""Set export and import as YAML in the fixtures format (catalog.exports.set_yaml,
authoring.transfer, their pages and their commands)."""

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from authoring.transfer import set_import
from catalog.exports import exporter_get
from catalog.models import Card, CardFacet, CardRevision, CardSet, CardTag
from catalog.selectors import set_file
from catalog.services import (
    SetError,
    StaleRevisionError,
    card_create,
    card_delete,
    card_update,
    set_create,
)
from tests.conftest import CORE_SET, FIXTURE_SETS
from tests.exporters import StandIn
from tests.factories import monster_document
from validator.engine import (
    CardDocumentError,
    SetDocument,
    dump_card,
    load_set_file,
    parse_set,
    read_yaml,
)

pytestmark = pytest.mark.django_db

OFFICIAL_SET_FILES = sorted(FIXTURE_SETS.glob("munchkin-*.yaml"))
StandInMaker = Callable[..., type[StandIn]]


# --------------------------------------------------------------------------------------------
# Helpers and fixtures
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def core_documents() -> list[dict[str, Any]]:
    """One core card of each of several kinds (not only monsters), as stored documents."""
    core = load_set_file(CORE_SET)
    wanted = ["item", "curse", "race", "one_shot", "monster_enhancer", "go_up_a_level"]
    picked = {}
    for card in core.cards:
        if card.kind_name in wanted and card.kind_name not in picked:
            picked[card.kind_name] = dump_card(card)
    # A monster with Bad Stuff and conditions, the richest documents of the set.
    picked["monster"] = next(
        dump_card(c) for c in core.cards if c.kind_name == "monster" and "bad_stuff" in dump_card(c)
    )
    assert set(picked) == {*wanted, "monster"}
    return list(picked.values())


@pytest.fixture
def my_set(alice: User, core_documents: list[dict[str, Any]]) -> CardSet:
    """A private custom set of alice's with made-up monsters and copies of core cards."""
    card_set = set_create(
        owner=alice,
        code="alice-dungeon",
        name="Alice's Dungeon",
        description="A custom set: ogres, drägons and borrowed loot.",
        cards_in_box=40,
    )
    card_set.year = 2024
    card_set.save()
    documents = [
        monster_document("Test Ogre"),
        monster_document("Drägon of Ünïcode", level=16, treasures=4, tags=["fire"]),
        monster_document("Tiny Rat", level=1, treasures=1, copies=3),
        *core_documents,
    ]
    for document in documents:
        card_create(card_set=card_set, actor=alice, document=document)
    return card_set


def export_text(card_set: CardSet) -> str:
    _, _, content = exporter_get("set-yaml").render(set_file=set_file(card_set=card_set))
    return content.decode("utf-8")


def parse_text(text: str) -> SetDocument:
    parsed = read_yaml(text, "test")
    return parse_set(parsed.data, "test", parsed.lines)


def stored_documents(card_set: CardSet) -> dict[str, Any]:
    return {c.name: c.document for c in Card.objects.filter(card_set=card_set)}


def row_counts() -> dict[str, int]:
    """Every table an import writes to, to prove a refused import wrote nothing."""
    return {
        "sets": CardSet.everything.count(),
        "cards": Card.everything.count(),
        "revisions": CardRevision.objects.count(),
        "tags": CardTag.objects.count(),
        "facets": CardFacet.objects.count(),
    }


def wipe_catalog() -> None:
    Card.everything.all().delete()
    CardSet.everything.all().delete()
    assert row_counts() == {"sets": 0, "cards": 0, "revisions": 0, "tags": 0, "facets": 0}


def misspell_kind(text: str, index: int) -> tuple[str, int]:
    """The text with `kind:` of cards[index] written `kidn:`, and the line of that key."""
    parsed = read_yaml(text)
    line = parsed.lines[("cards", index, "kind")]
    lines = text.splitlines(keepends=True)
    assert "kind:" in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace("kind:", "kidn:", 1)
    return "".join(lines), line


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------


def test_export_of_a_custom_set_parses_back(my_set: CardSet, alice: User) -> None:
    filename, content_type, content = exporter_get("set-yaml").render(
        set_file=set_file(card_set=my_set)
    )
    assert filename == "alice-dungeon.yaml"
    assert content_type == "application/yaml"
    text = content.decode("utf-8")
    assert text.startswith("# ")
    assert "Drägon of Ünïcode" in text  # unicode is written as itself, not escaped

    document = parse_text(text)
    assert document.set.code == "alice-dungeon"
    assert document.set.name == "Alice's Dungeon"
    assert document.set.official is False
    assert document.set.year == 2024
    assert document.set.cards_in_box == 40
    assert document.set.description == "A custom set: ogres, drägons and borrowed loot."
    assert {c.name: dump_card(c) for c in document.cards} == stored_documents(my_set)
    # Each card in dump order, in the order the cards were added.
    data = read_yaml(text).data
    assert list(data) == ["language", "set", "cards"]
    assert [list(c) for c in data["cards"]] == [list(dump_card(c)) for c in document.cards]
    assert [c["name"] for c in data["cards"]] == list(
        Card.objects.filter(card_set=my_set).order_by("pk").values_list("name", flat=True)
    )


def test_export_is_stable_and_has_live_cards_only(my_set: CardSet, alice: User) -> None:
    first = exporter_get("set-yaml").render(set_file=set_file(card_set=my_set))
    assert exporter_get("set-yaml").render(set_file=set_file(card_set=my_set)) == first

    card_delete(card=Card.objects.get(card_set=my_set, name="Tiny Rat"), actor=alice)
    names = [c.name for c in parse_text(export_text(my_set)).cards]
    assert "Tiny Rat" not in names
    assert len(names) == Card.objects.filter(card_set=my_set).count()


def test_export_leaves_out_unset_optional_set_facts(alice: User) -> None:
    card_set = set_create(owner=alice, code="bare", name="Bare")
    card_create(card_set=card_set, actor=alice, document=monster_document())
    data = read_yaml(export_text(card_set)).data
    assert data["set"] == {"code": "alice-bare", "name": "Bare", "official": False}


# --------------------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------------------


def test_round_trip_into_an_empty_database(my_set: CardSet, alice: User) -> None:
    text = export_text(my_set)
    originals = stored_documents(my_set)
    facts = CardSet.objects.values("code", "name", "description", "year", "cards_in_box").get(
        pk=my_set.pk
    )
    assert len(originals) == 10

    wipe_catalog()
    report = set_import(owner=alice, text=text, source="alice-dungeon.yaml")

    card_set = report.card_set
    assert report.set_created
    assert sorted(report.created) == sorted(originals)
    assert report.updated == [] and report.unchanged == []
    assert stored_documents(card_set) == originals
    assert (
        CardSet.objects.values("code", "name", "description", "year", "cards_in_box").get(
            pk=card_set.pk
        )
        == facts
    )
    assert card_set.owner == alice and card_set.official is False
    assert card_set.visibility == "private"
    # Every card has its first revision, recorded as this import.
    assert set(CardRevision.objects.values_list("number", "source", "changed_by")) == {
        (1, "import alice-dungeon.yaml", alice.pk)
    }
    # Exporting the imported set gives the same file, byte for byte.
    assert export_text(card_set) == text


@pytest.mark.parametrize("path", OFFICIAL_SET_FILES, ids=lambda p: p.stem)
def test_every_official_set_file_round_trips(path: Path, alice: User) -> None:
    assert row_counts()["cards"] == 0
    original = load_set_file(path)

    report = set_import(owner=alice, text=path.read_text(encoding="utf-8"), source=path.name)

    assert report.card_set.code == f"alice-{original.set.code}"  # in alice's scope
    assert report.card_set.official is False  # whatever the file says
    assert len(report.created) == len(original.cards)
    exported = parse_text(export_text(report.card_set))
    assert [dump_card(c) for c in exported.cards] == [dump_card(c) for c in original.cards]
    assert exported.set.model_dump(exclude={"official", "code"}) == original.set.model_dump(
        exclude={"official", "code"}
    )
    assert exported.set.official is False


def test_the_official_set_files_are_all_tested() -> None:
    assert len(OFFICIAL_SET_FILES) >= 5
    assert CORE_SET in OFFICIAL_SET_FILES


# --------------------------------------------------------------------------------------------
# Refused imports write nothing
# --------------------------------------------------------------------------------------------


def test_one_bad_card_is_reported_with_its_line_and_nothing_is_written(
    my_set: CardSet, alice: User
) -> None:
    text = export_text(my_set).replace("code: alice-dungeon", "code: another-dungeon")
    bad, line = misspell_kind(text, 3)
    before = row_counts()

    with pytest.raises(CardDocumentError) as raised:
        set_import(owner=alice, text=bad, source="bad.yaml")

    assert row_counts() == before
    assert raised.value.source == "bad.yaml"
    [error] = raised.value.errors
    assert error.path == "cards[3].kidn"
    assert error.line == line
    assert "did you mean 'kind'" in error.message
    assert raised.value.lines()[0].startswith(f"bad.yaml:{line}: cards[3].kidn: ")
    assert str(error).startswith(f"line {line}: cards[3].kidn: ")


def test_a_bad_card_after_changed_ones_writes_nothing_into_a_set(
    my_set: CardSet, alice: User
) -> None:
    text = export_text(my_set).replace("level: 7", "level: 8")  # cards[0], Test Ogre
    bad, _ = misspell_kind(text, 3)
    revisions = dict(Card.objects.filter(card_set=my_set).values_list("name", "revision"))
    before = row_counts()

    with pytest.raises(CardDocumentError):
        set_import(owner=alice, text=bad, source="bad.yaml", into=my_set)

    assert row_counts() == before
    assert dict(Card.objects.filter(card_set=my_set).values_list("name", "revision")) == revisions


def test_a_failure_while_writing_undoes_the_whole_import(
    my_set: CardSet, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = export_text(my_set)
    text = text.replace("level: 7", "level: 8").replace("level: 16", "level: 17")
    calls: list[str] = []

    def update_then_fail(*, card: Card, **kwargs: Any) -> Card:
        calls.append(card.name)
        if len(calls) == 2:
            raise StaleRevisionError(card, card.revision)
        return card_update(card=card, **kwargs)

    monkeypatch.setattr("authoring.transfer.card_update", update_then_fail)
    before = row_counts()
    documents = stored_documents(my_set)

    with pytest.raises(StaleRevisionError):
        set_import(owner=alice, text=text, source="x.yaml", into=my_set)

    assert calls == ["Test Ogre", "Drägon of Ünïcode"]  # the first one was written, then undone
    assert row_counts() == before
    assert stored_documents(my_set) == documents


@pytest.mark.parametrize(
    ("text", "path", "line"),
    [
        ("set: {code: x, name: X}\ncards:\n  - name: [unclosed\n", "", 4),
        ("", "", None),
        ("- just\n- a list\n", "", None),
        ("set: {code: x, name: X}\ncards: []\nextra: 1\n", "extra", 3),
    ],
    ids=["syntax", "empty", "not-a-mapping", "unknown-key"],
)
def test_a_file_that_is_not_a_set_is_refused(
    alice: User, text: str, path: str, line: int | None
) -> None:
    with pytest.raises(CardDocumentError) as raised:
        set_import(owner=alice, text=text, source="odd.yaml")
    assert row_counts()["sets"] == 0
    first = raised.value.errors[0]
    assert first.path == path
    if line is not None:
        assert first.line == line


def test_cards_with_the_same_web_address_are_refused(alice: User) -> None:
    text = (
        "set: {code: clash, name: Clash}\ncards:\n"
        "  - {name: 'Big Rat', deck: door, kind: monster, level: 1, treasures: 1,"
        " encoding: {status: full}}\n"
        "  - {name: 'Big, Rat', deck: door, kind: monster, level: 1, treasures: 1,"
        " encoding: {status: full}}\n"
    )
    with pytest.raises(CardDocumentError) as raised:
        set_import(owner=alice, text=text, source="clash.yaml")
    [error] = raised.value.errors
    assert (error.path, error.line) == ("cards[1].name", 4)
    assert row_counts()["sets"] == 0


def test_a_new_set_whose_code_is_taken_is_refused(my_set: CardSet, alice: User) -> None:
    before = row_counts()
    with pytest.raises(SetError) as raised:
        set_import(owner=alice, text=export_text(my_set), source="copy.yaml")
    assert raised.value.field == "code"
    assert row_counts() == before


def test_an_official_file_becomes_a_custom_set_with_the_given_visibility(alice: User) -> None:
    report = set_import(
        owner=alice, text=CORE_SET.read_text(), source="core.yaml", visibility="unlisted"
    )
    card_set = CardSet.objects.get(pk=report.card_set.pk)
    assert (card_set.official, card_set.owner, card_set.visibility) == (False, alice, "unlisted")
    assert card_set.year == 2001


# --------------------------------------------------------------------------------------------
# Import into an existing set
# --------------------------------------------------------------------------------------------


def test_import_into_a_set_creates_revisions_for_changed_cards(
    my_set: CardSet, alice: User
) -> None:
    text = export_text(my_set)
    data = read_yaml(text).data
    ogre = next(c for c in data["cards"] if c["name"] == "Test Ogre")
    ogre["level"] = 9
    rat = next(c for c in data["cards"] if c["name"] == "Tiny Rat")
    data["cards"].remove(rat)  # a card the file lacks is kept
    data["cards"].append(monster_document("New Goblin", level=2, treasures=1))
    data["set"]["name"] = "Renamed in the file"
    revisions = dict(Card.objects.filter(card_set=my_set).values_list("name", "revision"))

    report = set_import(
        owner=alice, text=yaml.safe_dump(data, sort_keys=False), source="v2.yaml", into=my_set
    )

    assert report.card_set == my_set and not report.set_created
    assert report.created == ["New Goblin"]
    assert report.updated == ["Test Ogre"]
    assert sorted(report.unchanged) == sorted(set(revisions) - {"Test Ogre", "Tiny Rat"})
    ogre_row = Card.objects.get(card_set=my_set, name="Test Ogre")
    assert ogre_row.revision == revisions["Test Ogre"] + 1 and ogre_row.level == 9
    newest = CardRevision.objects.filter(card=ogre_row).first()
    assert newest is not None
    assert (newest.number, newest.source, newest.changed_by) == (2, "import v2.yaml", alice)
    assert newest.document["level"] == 9
    assert Card.objects.filter(card_set=my_set, name="Tiny Rat").exists()
    for name in report.unchanged:
        assert Card.objects.get(card_set=my_set, name=name).revision == revisions[name]
    assert CardSet.objects.get(pk=my_set.pk).name == "Alice's Dungeon"

    # The same file again changes nothing.
    count = CardRevision.objects.count()
    again = set_import(
        owner=alice, text=yaml.safe_dump(data, sort_keys=False), source="v2.yaml", into=my_set
    )
    assert again.created == [] and again.updated == []
    assert CardRevision.objects.count() == count


def test_a_new_card_may_not_take_the_address_of_a_card_of_the_set(
    my_set: CardSet, alice: User
) -> None:
    text = (
        "set: {code: whatever, name: W}\ncards:\n"
        "  - {name: 'Test, Ogre', deck: door, kind: monster, level: 1, treasures: 1,"
        " encoding: {status: full}}\n"
    )
    before = row_counts()
    with pytest.raises(CardDocumentError) as raised:
        set_import(owner=alice, text=text, source="x.yaml", into=my_set)
    assert raised.value.errors[0].path == "cards[0].name"
    assert "Test Ogre" in raised.value.errors[0].message
    assert row_counts() == before


def test_another_user_cannot_import_into_my_set(my_set: CardSet, bob: User) -> None:
    before = row_counts()
    with pytest.raises(PermissionDenied):
        set_import(owner=bob, text=export_text(my_set), source="x.yaml", into=my_set)
    assert row_counts() == before


# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------


def test_export_page_downloads_the_file(client: Client, my_set: CardSet, alice: User) -> None:
    client.force_login(alice)
    response = client.get(f"/sets/{my_set.code}/export.yaml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/yaml")
    assert response["Content-Disposition"] == 'attachment; filename="alice-dungeon.yaml"'
    assert "private" in response["Cache-Control"]
    assert response.content.decode() == export_text(my_set)


def test_the_export_page_and_command_write_the_registered_exporters_file(
    client: Client, my_set: CardSet, alice: User, tmp_path: Path, stand_in: StandInMaker
) -> None:
    made = stand_in("set-yaml", content_type="text/plain", filename="stand-in.yaml")
    client.force_login(alice)
    response = client.get(f"/sets/{my_set.code}/export.yaml")
    assert response.status_code == 200 and response.content == StandIn.content
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="stand-in.yaml"'
    out = tmp_path / "set.yaml"
    call_command("export_set", my_set.code, "--output", str(out), stderr=io.StringIO())
    assert out.read_bytes() == StandIn.content
    assert [call["set_file"].code for call in made.calls] == [my_set.code, my_set.code]


def test_export_of_a_private_set_is_404_for_anyone_else(
    client: Client, my_set: CardSet, bob: User
) -> None:
    assert client.get(f"/sets/{my_set.code}/export.yaml").status_code == 404
    client.force_login(bob)
    assert client.get(f"/sets/{my_set.code}/export.yaml").status_code == 404
    my_set.visibility = "unlisted"
    my_set.save()
    assert client.get(f"/sets/{my_set.code}/export.yaml").status_code == 200


def test_export_of_an_official_set_says_official(client: Client) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    response = client.get("/sets/munchkin-core/export.yaml")
    assert response.status_code == 200
    document = parse_text(response.content.decode())
    assert document.set.official is True
    assert [dump_card(c) for c in document.cards] == [
        dump_card(c) for c in load_set_file(CORE_SET).cards
    ]


def test_import_page_needs_a_login(client: Client) -> None:
    response = client.get("/sets/import/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_import_page_offers_my_sets_only(
    client: Client, my_set: CardSet, alice: User, bob: User
) -> None:
    set_create(owner=bob, code="bob-set", name="Bob's set")
    client.force_login(alice)
    response = client.get("/sets/import/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'enctype="multipart/form-data"' in html
    assert 'type="file"' in html and "<textarea" in html
    assert 'value="alice-dungeon"' in html and "bob-set" not in html
    assert 'name="visibility"' in html
    # The CSP allows no inline script or style (the header's site.js is a file).
    assert "<script>" not in html and "style=" not in html


def test_import_page_uploads_a_file_and_reports(client: Client, alice: User) -> None:
    client.force_login(alice)
    upload = SimpleUploadedFile(
        "booty.yaml", (FIXTURE_SETS / "munchkin-booty.yaml").read_bytes(), "application/yaml"
    )
    response = client.post(
        "/sets/import/", {"file": upload, "text": "", "visibility": "public", "into": ""}
    )
    assert response.status_code == 302
    assert response["Location"] == "/sets/alice-munchkin-booty/"
    card_set = CardSet.objects.get(code="alice-munchkin-booty")
    assert (card_set.owner, card_set.visibility, card_set.official) == (alice, "public", False)
    count = len(load_set_file(FIXTURE_SETS / "munchkin-booty.yaml").cards)
    assert Card.objects.filter(card_set=card_set).count() == count
    assert CardRevision.objects.filter(source="import booty.yaml").count() == count
    messages = [str(m) for m in response.wsgi_request._messages]  # type: ignore[attr-defined]
    assert messages == [f"Imported {card_set.name}: {count} created, 0 updated, 0 unchanged."]


def test_import_page_pastes_into_my_set(client: Client, my_set: CardSet, alice: User) -> None:
    client.force_login(alice)
    text = export_text(my_set).replace("level: 7", "level: 8")
    response = client.post(
        "/sets/import/", {"text": text, "visibility": "private", "into": my_set.code}
    )
    assert response.status_code == 302
    assert response["Location"] == f"/sets/{my_set.code}/"
    assert Card.objects.get(card_set=my_set, name="Test Ogre").revision == 2
    messages = [str(m) for m in response.wsgi_request._messages]  # type: ignore[attr-defined]
    assert messages == ["Imported into Alice's Dungeon: 0 created, 1 updated, 9 unchanged."]


def test_import_page_lists_every_error_and_writes_nothing(
    client: Client, my_set: CardSet, alice: User
) -> None:
    client.force_login(alice)
    bad, line = misspell_kind(export_text(my_set).replace("level: 7", "level: 8"), 3)
    before = row_counts()
    response = client.post(
        "/sets/import/", {"text": bad, "visibility": "private", "into": "alice-dungeon"}
    )
    assert response.status_code == 400  # the form again, with why
    html = response.content.decode()
    assert f"line {line}: cards[3].kidn: unknown key &#x27;kidn&#x27;" in html
    assert "nothing was imported" in html
    assert row_counts() == before


def test_import_page_refuses_another_users_set(client: Client, my_set: CardSet, bob: User) -> None:
    client.force_login(bob)
    before = row_counts()
    response = client.post(
        "/sets/import/",
        {"text": export_text(my_set), "visibility": "private", "into": my_set.code},
    )
    assert response.status_code == 400  # the form again, with why
    assert "Select a valid choice" in response.content.decode()
    assert row_counts() == before


def test_import_page_refuses_a_file_over_2_mb(client: Client, alice: User) -> None:
    client.force_login(alice)
    big = SimpleUploadedFile("big.yaml", b"# padding\n" * 220_000, "application/yaml")
    response = client.post("/sets/import/", {"file": big, "visibility": "private"})
    assert response.status_code == 400  # the form again, with why
    assert "at most 2 MB" in response.content.decode()
    assert row_counts()["sets"] == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Choose a set file or paste its text."),
        ({"text": "set: {code: code-taken, name: X}\ncards: []\n"}, "code: the code"),
    ],
    ids=["nothing", "code-taken"],
)
def test_import_page_explains_other_refusals(
    client: Client, alice: User, data: dict[str, str], message: str
) -> None:
    set_create(owner=alice, code="code-taken", name="Taken")
    client.force_login(alice)
    before = row_counts()
    response = client.post("/sets/import/", {"visibility": "private", **data})
    assert response.status_code == 400  # the form again, with why
    assert message in response.content.decode()
    assert row_counts() == before


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------


def test_export_set_command_writes_stdout_or_a_file(my_set: CardSet, tmp_path: Path) -> None:
    out = io.StringIO()
    call_command("export_set", my_set.code, stdout=out)
    assert out.getvalue() == export_text(my_set)

    target = tmp_path / "out.yaml"
    call_command("export_set", my_set.code, "--output", str(target), stderr=io.StringIO())
    assert target.read_text(encoding="utf-8") == export_text(my_set)

    with pytest.raises(CommandError, match="no set"):
        call_command("export_set", "no-such-set", stdout=io.StringIO())


def test_import_set_command_imports_and_reports(alice: User, tmp_path: Path) -> None:
    out = io.StringIO()
    call_command("import_set", str(CORE_SET), "--owner", "alice", stdout=out)
    count = len(load_set_file(CORE_SET).cards)
    assert out.getvalue().strip() == (
        f"alice-munchkin-core: {count} created, 0 updated, 0 unchanged (set created)"
    )
    card_set = CardSet.objects.get(code="alice-munchkin-core")
    assert (card_set.owner, card_set.visibility, card_set.official) == (alice, "private", False)

    changed = tmp_path / "changed.yaml"
    changed.write_text(export_text(card_set).replace("level: 1\n", "level: 2\n", 1))
    out = io.StringIO()
    call_command(
        "import_set", str(changed), "--owner", "alice", "--into", card_set.code, stdout=out
    )
    assert out.getvalue().strip() == (
        f"alice-munchkin-core: 0 created, 1 updated, {count - 1} unchanged (set updated)"
    )


def test_import_set_command_reports_errors_and_fails(
    my_set: CardSet, alice: User, bob: User, tmp_path: Path
) -> None:
    bad, line = misspell_kind(export_text(my_set), 3)
    path = tmp_path / "bad.yaml"
    path.write_text(bad, encoding="utf-8")
    before = row_counts()
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 error; nothing was written"):
        call_command("import_set", str(path), "--owner", "alice", "--into", my_set.code, stderr=err)
    assert err.getvalue().startswith(f"{path}:{line}: cards[3].kidn: unknown key 'kidn'")

    good = tmp_path / "good.yaml"
    good.write_text(export_text(my_set), encoding="utf-8")
    with pytest.raises(CommandError, match="may not change"):
        call_command("import_set", str(good), "--owner", "bob", "--into", my_set.code)
    with pytest.raises(CommandError, match="no user"):
        call_command("import_set", str(good), "--owner", "nobody")
    with pytest.raises(CommandError, match="code: the code 'alice-dungeon' is taken"):
        call_command("import_set", str(good), "--owner", "alice")
    assert row_counts() == before


# -- issue 34: an import's cost and its count ------------------------------------------------


def test_import_page_lists_fifty_errors_of_20000_and_counts_the_rest(
    client: Client, alice: User
) -> None:
    bad_effects = [{"type": "strenght", "amount": 1}] * 20
    cards = [monster_document(f"Ogre {i}", effects=bad_effects) for i in range(1_000)]
    text = yaml.safe_dump({"set": {"code": "big", "name": "Big"}, "cards": cards})
    client.force_login(alice)
    before = row_counts()
    response = client.post("/sets/import/", {"text": text, "visibility": "private"})
    assert response.status_code == 400
    html = response.content.decode()
    assert html.count("unknown type &#x27;strenght&#x27;") == 50
    assert "...and 19,950 more errors, not listed" in html
    # The page was 21 MB; now the list of errors is bounded, beside the text sent back.
    listed = html.split('data-testid="import-errors"')[1].split("</div>")[0]
    assert len(listed) < 20_000
    assert row_counts() == before


@pytest.mark.parametrize("text", ["? [1]\n: 2\n", "{[1]: 2}\n"])
def test_import_page_names_a_key_that_is_a_list(client: Client, alice: User, text: str) -> None:
    client.force_login(alice)
    response = client.post("/sets/import/", {"text": text, "visibility": "private"})
    assert response.status_code == 400
    assert "a key must be a word or a number, not a list" in response.content.decode()


def test_import_page_is_counted_per_account_and_address(
    client: Client, alice: User, bob: User, settings: Any
) -> None:
    settings.SET_IMPORTS_PER_HOUR = 2
    client.force_login(alice)
    for _ in range(2):
        assert (
            client.post("/sets/import/", {"text": "x", "visibility": "private"}).status_code == 400
        )
    before = row_counts()
    refused = client.post(
        "/sets/import/", {"text": yaml.safe_dump({"set": {"code": "s", "name": "S"}, "cards": []})}
    )
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert "Too many imports: at most 2 an hour from your account." in refused.content.decode()
    assert row_counts() == before
    client.force_login(bob)  # another account on the same address
    refused = client.post("/sets/import/", {"text": "x", "visibility": "private"})
    assert refused.status_code == 429
    assert "from your address" in refused.content.decode()
