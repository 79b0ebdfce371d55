"""How complete an official set is (issue 18, point 3): the figures, the gaps, the set page's
block, the "Help complete this set" page and `completeness` in the set API.

The figures are worked out here from the set files themselves: by hand for the small set of
tests/catalog/conftest.py (TINY_BOX), and by counting the YAML of a fixture set."""

import io
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from catalog.models import Card, CardSet
from catalog.selectors import set_completeness, set_help
from catalog.services import card_create, card_write, set_create
from tests.conftest import FIXTURE_SETS, PASSWORD
from tests.factories import monster_document
from validator.engine import parse_card

pytestmark = pytest.mark.django_db

ISSUE_KEYS = {
    "cards_in_box",
    "known_cards",
    "known_copies",
    "stats_known",
    "full",
    "verified",
    "provisional",
}


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def block(html: str, testid: str) -> str:
    """The text of the list or paragraph carrying data-testid=`testid`."""
    match = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</(ul|p|section)>', html, re.S)
    assert match, testid
    return text_of(match.group(1))


# --------------------------------------------------------------------------------------------
# The figures of the small set, by hand
# --------------------------------------------------------------------------------------------


def test_the_small_sets_figures_are_those_worked_out_by_hand(tiny_box: CardSet) -> None:
    figures = set_completeness(card_set=tiny_box)
    assert figures.cards_in_box == 10
    assert figures.known_cards == 5
    assert figures.known_copies == 2 + 1 + 1  # Known Ogre, Shiny Hat, Star Role
    # Known Ogre (every stat) and Star Role (a Role has no stat); not Half Ogre (Treasures),
    # Mystery Card (kind unknown) or Shiny Hat (Gold).
    assert figures.stats_known == 2
    assert figures.full == 2  # Known Ogre, Star Role
    # Known Ogre (confidence high) and Shiny Hat (a contribution its set file records).
    assert figures.verified == 2
    assert figures.provisional == 1  # Half Ogre
    assert figures.copies_unknown == 2  # Half Ogre, Mystery Card
    # The box's 10 cards less Known Ogre's 2, Shiny Hat's 1 and one each for the two cards
    # of unknown copies; the Role card is outside the box's count.
    assert figures.unnamed == 10 - (2 + 1 + 1 + 1)
    assert figures.named == 5


def test_an_accepted_contribution_makes_a_card_verified(
    tiny_box: CardSet, alice: User, bob: User, accept_contribution: Any
) -> None:
    before = set_completeness(card_set=tiny_box)
    half = Card.objects.get(card_set=tiny_box, name="Half Ogre")
    document = {**half.document, "treasures": 2}
    accept_contribution(half, document, proposer=alice, curator=bob)
    after = set_completeness(card_set=tiny_box)
    assert after.verified == before.verified + 1
    # Treasures was its only stat missing (levels_gained has its default of 1).
    assert after.stats_known == before.stats_known + 1


def test_a_revision_that_is_no_contribution_verifies_nothing(
    tiny_box: CardSet, alice: User
) -> None:
    before = set_completeness(card_set=tiny_box)
    half = Card.objects.get(card_set=tiny_box, name="Half Ogre")
    card_write(
        row=half,
        card_set=tiny_box,
        typed=parse_card({**half.document, "treasures": 2}),
        actor=alice,
        source="editor",
    )
    assert set_completeness(card_set=tiny_box).verified == before.verified


def test_deleted_cards_do_not_count(tiny_box: CardSet) -> None:
    before = set_completeness(card_set=tiny_box)
    Card.objects.filter(card_set=tiny_box, name="Known Ogre").update(deleted_at=timezone.now())
    after = set_completeness(card_set=tiny_box)
    assert after.known_cards == before.known_cards - 1
    assert after.known_copies == before.known_copies - 2
    assert after.unnamed == (before.unnamed or 0) + 2


def test_unnamed_is_never_below_zero_and_none_without_a_box_size(tiny_box: CardSet) -> None:
    CardSet.objects.filter(pk=tiny_box.pk).update(cards_in_box=3)
    tiny_box.refresh_from_db()
    assert set_completeness(card_set=tiny_box).unnamed == 0
    CardSet.objects.filter(pk=tiny_box.pk).update(cards_in_box=None)
    tiny_box.refresh_from_db()
    figures = set_completeness(card_set=tiny_box)
    assert figures.unnamed is None and figures.named is None
    assert "named" not in [m.key for m in figures.meters]


def test_the_figures_read_the_set_in_a_few_queries(
    tiny_box: CardSet, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_max_num_queries(2):
        set_completeness(card_set=tiny_box)
    with django_assert_max_num_queries(2):
        set_help(card_set=tiny_box)


def test_the_gaps_say_what_each_card_misses_in_the_sets_order(tiny_box: CardSet) -> None:
    gaps = {gap.name: gap for gap in set_help(card_set=tiny_box).gaps}
    # Known Ogre and Star Role miss nothing: they are not listed.
    assert list(gaps) == ["Half Ogre", "Mystery Card", "Shiny Hat"]
    half = gaps["Half Ogre"]
    assert half.stats == ("Treasures",)
    assert half.copies_unknown and half.provisional_name and half.text == "text_only"
    assert not half.deck_unknown and not half.kind_unknown
    mystery = gaps["Mystery Card"]
    assert mystery.kind_unknown and mystery.deck_unknown and mystery.stats == ()
    hat = gaps["Shiny Hat"]
    assert hat.stats == ("Gold",) and not hat.copies_unknown and hat.slug == "shiny-hat"


def test_the_help_groups_hold_each_card_once_per_gap(tiny_box: CardSet) -> None:
    groups = {
        g.key: [(r.gap.name, r.detail) for r in g.rows] for g in set_help(card_set=tiny_box).groups
    }
    assert groups == {
        "stats": [("Half Ogre", "Treasures unknown"), ("Shiny Hat", "Gold unknown")],
        "kind": [("Mystery Card", "kind and deck unknown")],
        "copies": [
            ("Half Ogre", "how many the box holds is unknown"),
            ("Mystery Card", "how many the box holds is unknown"),
        ],
        "text": [
            ("Half Ogre", "rules text not encoded"),
            ("Mystery Card", "rules text not encoded"),
            ("Shiny Hat", "rules text not encoded"),
        ],
        "names": [("Half Ogre", "printed name uncertain")],
    }


# --------------------------------------------------------------------------------------------
# A fixture set, counted from its YAML
# --------------------------------------------------------------------------------------------

# Each kind's stats as the set files write them, and the default of a key left out (from the
# effect language's reference, docs/effect-language.md): what the engine's unknown_stats is
# checked against here.
STAT_KEYS: dict[str, dict[str, Any]] = {
    "monster": {"level": None, "treasures": None},  # its printed numbers
    "monster_enhancer": {"strength": None, "treasures": None},
    "item": {"bonus": 0, "slot": None, "gold": None},
    "ship": {"bonus": 0, "slot": None, "gold": None},
    "one_shot": {"gold": None},
    "hireling": {"bonus": 0},
    "ally": {"bonus": 0},
    "sidekick": {"bonus": 0},
    "power": {"rank": None},
}


def _yaml_figures(code: str) -> dict[str, Any]:
    data = yaml.safe_load((FIXTURE_SETS / f"{code}.yaml").read_text(encoding="utf-8"))
    cards = data["cards"]

    def stats_known(card: dict[str, Any]) -> bool:
        if card["kind"] == "unknown":
            return False
        keys = STAT_KEYS.get(card["kind"], {})
        return all(card.get(key, default) is not None for key, default in keys.items())

    def provenance(card: dict[str, Any]) -> dict[str, Any]:
        value: dict[str, Any] = card.get("provenance") or {}
        return value

    copies = [card.get("copies", 1) for card in cards]
    box = data["set"].get("cards_in_box")
    in_box = sum((c.get("copies", 1) or 1) for c in cards if c["kind"] != "role")
    return {
        "cards_in_box": box,
        "known_cards": len(cards),
        "known_copies": sum(n for n in copies if n is not None),
        "stats_known": sum(1 for c in cards if stats_known(c)),
        "full": sum(1 for c in cards if c["encoding"]["status"] == "full"),
        "verified": sum(
            1
            for c in cards
            if provenance(c).get("confidence") == "high" or provenance(c).get("contributions")
        ),
        "provisional": sum(1 for c in cards if provenance(c).get("name_uncertain")),
        "copies_unknown": sum(1 for n in copies if n is None),
        "unnamed": None if box is None else max(0, box - in_box),
    }


@pytest.mark.parametrize(
    "code",
    [
        "munchkin-core",
        "munchkin-super",
        "munchkin-impossible",
        "munchkin-booty",
        "munchkin-spongebob",
    ],
)
def test_a_fixture_sets_figures_match_its_yaml(code: str) -> None:
    call_command("load_catalog", str(FIXTURE_SETS / f"{code}.yaml"), stdout=io.StringIO())
    figures = set_completeness(card_set=CardSet.objects.get(code=code))
    expected = _yaml_figures(code)
    assert {key: getattr(figures, key) for key in expected} == expected


@pytest.fixture
def super_catalog(db: None) -> CardSet:
    call_command("load_catalog", str(FIXTURE_SETS / "munchkin-super.yaml"), stdout=io.StringIO())
    return CardSet.objects.get(code="munchkin-super")


def _generic_guy_missing() -> list[str]:
    """Generic Guy's stats its set file writes as null (a Level 14 monster otherwise)."""
    data = yaml.safe_load((FIXTURE_SETS / "munchkin-super.yaml").read_text(encoding="utf-8"))
    raw = next(c for c in data["cards"] if c["name"] == "Generic Guy")
    labels = {"level": "Level", "treasures": "Treasures"}  # a monster's printed numbers
    return [label for key, label in labels.items() if key in raw and raw[key] is None]


# --------------------------------------------------------------------------------------------
# The pages
# --------------------------------------------------------------------------------------------


def test_the_help_page_lists_generic_guys_unknown_treasures(
    client: Client, super_catalog: CardSet
) -> None:
    missing = _generic_guy_missing()
    assert "Treasures" in missing
    response = client.get("/sets/munchkin-super/help/")
    assert response.status_code == 200
    html = response.content.decode()
    stats = block(html, "gaps-stats")
    assert f"Generic Guy : {', '.join(missing)} unknown" in stats
    assert 'href="/sets/munchkin-super/generic-guy/"' in html
    # The box's cards not named yet, from the YAML: 168 less the copies of the named cards.
    unnamed = _yaml_figures("munchkin-super")["unnamed"]
    assert unnamed > 0
    assert f"{unnamed} cards of the box are not named yet" in block(html, "unnamed")


def test_the_help_page_of_a_complete_looking_set_says_so(client: Client, tiny_box: CardSet) -> None:
    Card.objects.filter(card_set=tiny_box).exclude(name="Known Ogre").delete()
    CardSet.objects.filter(pk=tiny_box.pk).update(cards_in_box=2)
    html = client.get("/sets/tiny-box/help/").content.decode()
    assert "Every card of the box is named." in html
    assert 'data-testid="nothing-missing"' in html
    assert 'data-testid="gaps-' not in html


def test_the_set_page_shows_the_figures_and_links_the_help_page(
    client: Client, tiny_box: CardSet
) -> None:
    html = client.get("/sets/tiny-box/").content.decode()
    summary = block(html, "completeness-summary")
    assert "5 of 10 cards of the box named" in summary
    assert "5 not named yet" in summary
    assert "2 of 5 cards with every stat known" in summary
    assert "1 with a provisional name" in summary
    # Each figure is a meter with a label and its numbers in words (readable without colour).
    assert re.search(r'<label for="meter-verified">Facts confirmed</label>', html)
    assert re.search(r'<meter id="meter-verified" min="0" max="5" value="2">', html)
    assert 'href="/sets/tiny-box/help/"' in html
    assert "completeness.css" in html


# --------------------------------------------------------------------------------------------
# Who sees what: anonymous, a signed-in user, a curator, staff, a custom set's owner
# --------------------------------------------------------------------------------------------


@pytest.fixture
def people(tiny_box: CardSet) -> dict[str, User | None]:
    curators = Group.objects.create(name="tiny-curators")
    tiny_box.curators = curators
    tiny_box.save()
    curator = User.objects.create_user("carol", password=PASSWORD)
    curator.groups.add(curators)
    return {
        "anonymous": None,
        "proposer": User.objects.create_user("alice", password=PASSWORD),
        "other": User.objects.create_user("bob", password=PASSWORD),
        "curator": curator,
        "staff": User.objects.create_user("erin", password=PASSWORD, is_staff=True),
    }


@pytest.mark.parametrize("who", ["anonymous", "proposer", "other", "curator", "staff"])
def test_everyone_may_read_an_official_sets_help_page_and_figures(
    client: Client, people: dict[str, User | None], who: str
) -> None:
    user = people[who]
    if user is not None:
        client.force_login(user)
    page = client.get("/sets/tiny-box/help/")
    assert page.status_code == 200 and "Half Ogre" in page.content.decode()
    api = client.get("/api/sets/tiny-box/")
    assert api.status_code == 200 and api.json()["completeness"]["known_cards"] == 5


@pytest.mark.parametrize("who", ["anonymous", "owner", "other", "staff"])
def test_a_custom_set_has_no_help_page_and_no_figures(
    client: Client, alice: User, bob: User, who: str
) -> None:
    card_set = set_create(owner=alice, code="alice-ogres", name="Ogres", visibility="public")
    card_create(card_set=card_set, actor=alice, document=monster_document())
    users = {
        "anonymous": None,
        "owner": alice,
        "other": bob,
        "staff": User.objects.create_user("erin", password=PASSWORD, is_staff=True),
    }
    if (user := users[who]) is not None:
        client.force_login(user)
    assert client.get("/sets/alice-ogres/help/").status_code == 404
    html = client.get("/sets/alice-ogres/").content.decode()
    assert 'data-testid="completeness"' not in html and "/help/" not in html
    api = client.get("/api/sets/alice-ogres/")
    assert api.status_code == 200 and api.json()["completeness"] is None


@pytest.mark.parametrize("who", ["anonymous", "other", "owner"])
def test_a_private_sets_help_page_is_404(client: Client, alice: User, bob: User, who: str) -> None:
    set_create(owner=alice, code="alice-secret", name="Secret", visibility="private")
    if who != "anonymous":
        client.force_login(alice if who == "owner" else bob)
    # Custom, so no help page even for its owner; for anyone else it does not exist at all.
    assert client.get("/sets/alice-secret/help/").status_code == 404


def test_an_unknown_sets_help_page_is_404(client: Client, db: None) -> None:
    response = client.get("/sets/no-such-set/help/")
    assert response.status_code == 404


# --------------------------------------------------------------------------------------------
# The API
# --------------------------------------------------------------------------------------------


def test_the_set_api_carries_the_issues_keys_and_two_more(
    client: Client, tiny_box: CardSet
) -> None:
    completeness = client.get("/api/sets/tiny-box/").json()["completeness"]
    assert set(completeness) == ISSUE_KEYS | {"copies_unknown", "unnamed"}
    assert completeness == {
        "cards_in_box": 10,
        "known_cards": 5,
        "known_copies": 4,
        "stats_known": 2,
        "full": 2,
        "verified": 2,
        "provisional": 1,
        "copies_unknown": 2,
        "unnamed": 5,
    }


def test_the_set_list_stays_without_figures(client: Client, tiny_box: CardSet) -> None:
    (listed,) = [s for s in client.get("/api/sets/").json()["data"] if s["code"] == "tiny-box"]
    assert "completeness" not in listed


def test_the_schema_documents_completeness(tmp_path: Path) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(out), "--validate", stdout=io.StringIO())
    schema = yaml.safe_load(out.read_text())
    components = schema["components"]["schemas"]
    detail = components["CardSetDetailOutput"]["properties"]["completeness"]
    assert detail.get("nullable") is True or "oneOf" in detail or "allOf" in detail
    (name,) = [k for k in components if k.startswith("Completeness")]
    properties = components[name]["properties"]
    assert set(properties) == ISSUE_KEYS | {"copies_unknown", "unnamed"}
    assert properties["cards_in_box"].get("nullable") is True
    get = schema["paths"]["/api/sets/{code}/"]["get"]["responses"]
    assert "CardSetDetailOutput" in str(get["200"]) and "404" in get
