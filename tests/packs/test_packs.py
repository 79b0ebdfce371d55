"""Packs: building (sets, query, copies, single cards, failing cards), the blend report, the
export command, the API, the pages, and importing a pack into an empty database."""

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import AnonymousUser, User
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from catalog.models import Card, CardRevision, CardSet
from catalog.services import card_create, set_create
from catalog.validation import cards_validate_saved
from packs.blend import PackCard, blend_report
from packs.models import Pack
from packs.selectors import PackBuildError
from packs.services import pack_build, pack_import
from tests.conftest import FIXTURE_SETS
from tests.factories import monster_document
from tests.schema_check import schema_problems
from validator.checks import check_version
from validator.engine import PACK_SCHEMA_PATH, dump_card, load_set_file, parse_card, parse_pack
from validator.models import CardCheck

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalog(db: None) -> None:
    call_command("load_catalog", stdout=io.StringIO())


def test_export_pack_core_and_booty_validates_against_the_published_schema(
    catalog: None, tmp_path: Path
) -> None:
    out = tmp_path / "core-booty.json"
    stdout = io.StringIO()
    call_command(
        "export_pack", "--sets", "munchkin-core,munchkin-booty", "--output", str(out), stdout=stdout
    )
    data = json.loads(out.read_text())
    assert schema_problems(json.loads(PACK_SCHEMA_PATH.read_text()), data) == []
    pack = parse_pack(data)
    assert [s.code for s in pack.sets] == ["munchkin-core", "munchkin-booty"]
    # Counted from the two set files as written; a card of unknown copies (`copies: null`) is
    # one card in the deck, as docs/completeness.md counts it; one of unknown deck is in none.
    written: dict[str, int] = {"door": 0, "treasure": 0}
    for code in ("munchkin-core", "munchkin-booty"):
        for card in yaml.safe_load((FIXTURE_SETS / f"{code}.yaml").read_text())["cards"]:
            if card["deck"] is not None:
                written[card["deck"]] += card["copies"] or 1
    assert written["door"] + written["treasure"] > 168  # core alone holds 168 (its rulebook)
    assert (pack.copies("door"), pack.copies("treasure")) == (written["door"], written["treasure"])
    balance = data["metadata"]["report"]["balance"]
    assert (balance["door"], balance["treasure"]) == (written["door"], written["treasure"])
    assert "Wandering Monster" in stdout.getvalue()  # the report names the duplicate
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sets", "munchkin-cor"], "unknown set 'munchkin-cor'; did you mean 'munchkin-core'?"),
        (["--sets", ""], "choose at least one set"),
        (["--sets", "munchkin-core", "--query", "t:monstr"], "unknown kind 'monstr'"),
        (["--sets", "munchkin-core", "--query", "name:nosuchcardatall"], "holds no card"),
    ],
)
def test_bad_exports_say_why_and_write_nothing(
    catalog: None, tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "pack.json"
    with pytest.raises(CommandError) as caught:
        call_command("export_pack", *args, "--output", str(out), stdout=io.StringIO())
    assert message in str(caught.value)
    assert not out.exists() and not list(tmp_path.iterdir())


def test_query_copies_include_and_exclude(catalog: None) -> None:
    troll = Card.objects.get(name="Net Troll", card_set__code="munchkin-core")
    rat = Card.objects.get(name="Maul Rat", card_set__code="munchkin-core")
    booty_card = Card.objects.filter(card_set__code="munchkin-booty", kind="monster").first()
    assert booty_card is not None
    built = pack_build(
        actor=None,
        set_codes=["munchkin-core"],
        query="t:monster lvl>=10",
        copies={troll.pk: 3},
        include=[rat.pk, booty_card.pk],
        exclude=[Card.objects.get(name="Plutonium Dragon").pk],
    )
    pack = parse_pack(built.document)
    entries = {(e.set, e.name): e.copies for e in pack.decks.door}
    assert entries[("munchkin-core", "Net Troll")] == 3
    assert ("munchkin-core", "Maul Rat") in entries  # level 2, added by hand
    assert ("munchkin-booty", booty_card.name) in entries
    assert ("munchkin-core", "Plutonium Dragon") not in entries
    assert built.selection["query"] == "t:monster lvl>=10"


def test_cards_failing_validation_are_left_out_unless_kept(catalog: None, alice: User) -> None:
    card_set = set_create(owner=alice, code="alice-broken", name="Broken")
    card = card_create(card_set=card_set, actor=alice, document=monster_document("Shaky"))
    cards_validate_saved(card_ids=[card.pk])  # as the task worker does after the save
    CardCheck.objects.filter(document_hash=card.document_hash).update(
        status="fail", messages=["it crashed"]
    )
    assert CardCheck.objects.filter(
        document_hash=card.document_hash, check_version=check_version()
    ).exists()
    built = pack_build(actor=alice, set_codes=["alice-broken", "munchkin-core"])
    assert built.report["left_out"] == [
        {"set": "alice-broken", "card": "Shaky", "why": "fails validation"}
    ]
    kept = pack_build(
        actor=alice, set_codes=["alice-broken", "munchkin-core"], include_failing=True
    )
    assert kept.report["failing_included"][0]["card"] == "Shaky"


def test_private_sets_are_not_packed_by_others(catalog: None, alice: User) -> None:
    set_create(owner=alice, code="secret", name="Secret")
    bob = User.objects.create_user("bob")
    with pytest.raises(PackBuildError) as caught:
        pack_build(actor=bob, set_codes=["secret"])
    assert caught.value.errors[0][0] == "sets[0]"


def test_the_blend_report() -> None:
    def cards(code: str) -> list[PackCard]:
        document = load_set_file(FIXTURE_SETS / f"munchkin-{code}.yaml")
        return [PackCard(document.set.code, c, c.copies or 1) for c in document.cards]

    report = blend_report(cards("core") + cards("booty"))
    assert {"name": "Wandering Monster", "sets": ["munchkin-booty", "munchkin-core"]} in report[
        "duplicated"
    ]
    assert report["balance"]["per_set"]["munchkin-core"] == {"door": 95, "treasure": 73}
    assert {"race", "class", "accent"} <= set(report["axes"])
    assert report["never_true"] == []  # core and Booty provide every trait they test
    # Without the core set, cards that test for an Elf find no Elf.
    core_items = [c for c in cards("core") if c.card.kind_name == "item"]
    lonely = blend_report(core_items)
    assert any(n["axis"] == "race" and n["name"] == "elf" for n in lonely["never_true"])
    assert lonely["monster_levels"] == {}


def test_a_pack_imported_into_an_empty_database_gives_the_same_documents(catalog: None) -> None:
    codes = [p.stem for p in sorted(FIXTURE_SETS.glob("*.yaml"))]
    built = pack_build(actor=None, set_codes=codes, include_failing=True)
    text = json.dumps(built.document)
    before = {
        (c.card_set.code, c.name): c.document for c in Card.objects.select_related("card_set")
    }
    CardRevision.objects.all().delete()
    Card.everything.all().delete()
    CardSet.everything.all().delete()
    created = pack_import(actor=None, text=text, source="pack.json")
    assert sorted(s.code for s in created) == sorted(codes)
    after = {(c.card_set.code, c.name): c.document for c in Card.objects.select_related("card_set")}
    assert after.keys() == before.keys()
    for key, document in before.items():
        assert dump_card(parse_card(after[key])) == dump_card(parse_card(document)), key
    assert all(s.official for s in created)


def test_importing_a_damaged_pack_writes_nothing(catalog: None) -> None:
    built = pack_build(actor=None, set_codes=["munchkin-core"])
    document: dict[str, Any] = json.loads(json.dumps(built.document))
    document["sets"][0]["code"] = "core-copy"  # the content no longer matches its checksum
    sets_before = CardSet.objects.count()
    with pytest.raises(Exception, match="checksum"):
        pack_import(actor=None, text=json.dumps(document), source="damaged.json")
    assert CardSet.objects.count() == sets_before


def test_the_api_builds_packs_for_users(catalog: None, alice: User) -> None:
    client = APIClient()
    assert client.post("/api/packs/", {"sets": ["munchkin-core"]}, format="json").status_code == 401
    client.force_login(alice)
    response = client.post(
        "/api/packs/",
        {"sets": ["munchkin-core", "munchkin-booty"], "name": "Pirates"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["object"] == "pack" and body["name"] == "Pirates"
    assert body["report"]["balance"]["door"] > 0
    pack = Pack.objects.get(pk=body["id"])
    assert pack.owner == alice and pack.sha256 == body["sha256"]
    bad = client.post("/api/packs/", {"sets": ["munchkin-boty"]}, format="json").json()
    assert bad["status"] == 400 and bad["errors"][0]["path"] == "sets[0]"
    assert "did you mean 'munchkin-booty'" in bad["errors"][0]["message"]
    warned = client.post(
        "/api/packs/", {"sets": ["munchkin-core"], "query": "lvl>>3"}, format="json"
    )
    assert warned.status_code == 400 and warned.json()["errors"][0]["path"] == "query"
    other = APIClient()
    other.force_login(User.objects.create_user("bob"))
    assert other.get(f"/api/packs/{pack.pk}/").status_code == 404
    assert client.get(f"/api/packs/{pack.pk}/").json()["id"] == pack.pk
    assert Pack.objects.count() == 1  # refused builds kept nothing


def test_the_pack_schema_is_served(client: Client) -> None:
    response = client.get("/api/schema/pack.json")
    assert response.status_code == 200
    assert response.json() == json.loads(PACK_SCHEMA_PATH.read_text())


def test_builder_page_previews_then_builds(client: Client, catalog: None, alice: User) -> None:
    preview = client.get("/packs/new/", {"sets": ["munchkin-core", "munchkin-booty"]})
    page = preview.content.decode()
    assert preview.status_code == 200
    assert 'data-testid="blend-report"' in page and "Wandering Monster" in page
    assert (
        page.count('name="exclude"')
        == Card.objects.filter(card_set__code__in=["munchkin-core", "munchkin-booty"]).count()
    )
    client.force_login(alice)
    troll = Card.objects.get(name="Net Troll")
    response = client.post(
        "/packs/new/",
        {
            "sets": ["munchkin-core"],
            "action": "build",
            f"copies-{troll.pk}": "0",
            "name": "No trolls",
        },
    )
    assert response.status_code == 302
    pack = Pack.objects.get()
    assert response["Location"] == f"/packs/{pack.pk}/"
    assert "Net Troll" not in json.dumps(pack.document["decks"])
    detail = client.get(response["Location"]).content.decode()
    assert "No trolls" in detail and 'data-testid="blend-report"' in detail
    download = client.get(f"/packs/{pack.pk}/download.json")
    assert parse_pack(json.loads(download.content)).name == "No trolls"
    # The builder's own files: no shared cache (a proxy, a CDN) may keep any of them.
    for fmt in ("json", "yaml"):
        response = client.get(f"/packs/{pack.pk}/download.{fmt}")
        assert response.status_code == 200
        assert "private" in response["Cache-Control"], fmt
    # The Tabletop Simulator zip is made in the background, started from the pack page.
    old_address = client.get(f"/packs/{pack.pk}/download.tts")
    assert old_address["Location"] == f"/packs/{pack.pk}/#tabletop-simulator"


def test_builder_page_reports_problems(client: Client, catalog: None) -> None:
    response = client.get("/packs/new/", {"sets": ["munchkin-core"], "query": "t:monstr"})
    assert response.status_code == 400
    assert "unknown kind" in response.content.decode()


def test_import_pack_command_refuses_a_wrong_version_and_a_broken_checksum(
    catalog: None, tmp_path: Path
) -> None:
    built = pack_build(actor=None, set_codes=["munchkin-core"])
    for change, message in (
        ({"format_version": 9}, "newer version"),
        ({"name": "Edited after the fact"}, "checksum mismatch"),
    ):
        path = tmp_path / "pack.json"
        path.write_text(json.dumps({**built.document, **change}))
        with pytest.raises(CommandError) as caught:
            call_command("import_pack", str(path), stdout=io.StringIO())
        assert message in str(caught.value) and "nothing imported" in str(caught.value)


@pytest.mark.parametrize("asked", ["alice-unlistd", "alice-privat", "alice-private", "qqqq"])
def test_an_unknown_set_is_never_answered_with_anothers_hidden_set(
    catalog: None, alice: User, bob: User, asked: str
) -> None:
    for visibility in ("unlisted", "private"):
        set_create(owner=alice, code=f"alice-{visibility}", name=visibility, visibility=visibility)
    client = APIClient()
    client.force_login(bob)

    def answers() -> tuple[object, str]:
        api = client.post("/api/packs/", {"sets": [asked]}, format="json").json()
        with pytest.raises(PackBuildError) as anonymous:
            pack_build(actor=AnonymousUser(), set_codes=[asked])
        return api, str(anonymous.value)

    with_them = answers()
    assert "did you mean 'alice-" not in json.dumps(with_them)
    with pytest.raises(PackBuildError) as owner:
        pack_build(actor=alice, set_codes=["alice-unlistd"])
    assert "did you mean 'alice-unlisted'?" in str(owner.value)  # the owner's own set
    CardSet.everything.filter(owner=alice).delete()
    assert with_them == answers()  # the same as if alice's sets did not exist


def test_an_included_card_id_reaches_an_unlisted_set_only_by_its_code(
    catalog: None, alice: User, bob: User
) -> None:
    """Card ids are sequential: an `include`d id of an unlisted set's card is "no card with
    that id" (naming nothing), unless the request names the set: as one of the pack's sets,
    or in a "Name@set-code" line of the builder."""
    hidden = set_create(owner=alice, code="hidden", name="Hidden", visibility="unlisted")
    card = card_create(card_set=hidden, actor=alice, document=monster_document("Hidden Ogre"))
    for actor in (AnonymousUser(), bob):
        with pytest.raises(PackBuildError) as refused:
            pack_build(actor=actor, set_codes=["munchkin-core"], include=[card.pk])
        assert refused.value.errors == [("include", f"no card with id {card.pk}")]
        with_code = pack_build(
            actor=actor,
            set_codes=["munchkin-core"],
            include=[card.pk],
            include_sets=["alice-hidden"],
        )
        assert "Hidden Ogre" in json.dumps(with_code.document)
    client = APIClient()
    client.force_login(bob)
    answer = client.post(
        "/api/packs/", {"sets": ["munchkin-core"], "include": [card.pk]}, format="json"
    )
    assert answer.status_code == 400 and "alice-hidden" not in answer.content.decode()
    page = Client().post(
        "/packs/new/", {"sets": ["munchkin-core"], "add_cards": "Hidden Ogre@alice-hidden"}
    )
    assert page.status_code == 200 and "Hidden Ogre" in page.content.decode()
    assert pack_build(actor=alice, set_codes=["munchkin-core"], include=[card.pk])  # the owner
