"""The card page puts the player first: face, rules text, known stats, printings, the card's
place in its set; the rules engine's view folded below. And the site's own 404 and 500 pages."""

import io
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.test import Client
from django.urls import path, reverse
from pytest_django import DjangoAssertNumQueries

import cardsite.urls
from catalog.models import Card, CardSet
from catalog.services import card_write
from tests.conftest import FIXTURE_SETS
from validator.engine import parse_card

pytestmark = pytest.mark.django_db


def card_url(code: str, name: str) -> str:
    return reverse(
        "catalog:card_detail", args=[code, Card.objects.get(card_set__code=code, name=name).slug]
    )


def section(html: str, testid: str) -> str:
    """The text of the element carrying data-testid=`testid`, tags stripped."""
    match = re.search(
        rf'data-testid="{testid}"[^>]*>(.*?)</(dl|div|p|ul|nav|pre|strong)>', html, re.S
    )
    assert match, testid
    return unescape(re.sub(r"<[^>]+>", " ", match.group(1)))


def facts(html: str) -> dict[str, str]:
    """The stats list as {label: value}."""
    block = re.search(r'data-testid="stats">(.*?)</dl>', html, re.S)
    assert block
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", block.group(1), re.S)
    return {dt: " ".join(unescape(re.sub(r"<[^>]+>", " ", dd)).split()) for dt, dd in pairs}


def fixture_cards(name: str) -> list[dict[str, Any]]:
    document = yaml.safe_load((FIXTURE_SETS / f"{name}.yaml").read_text())
    cards: list[dict[str, Any]] = document["cards"]
    return cards


def fixture_card(set_name: str, name: str) -> dict[str, Any]:
    return next(c for c in fixture_cards(set_name) if c["name"] == name)


@pytest.fixture
def all_sets(db: None) -> None:
    call_command("load_catalog", stdout=io.StringIO())


def test_a_monster_shows_its_rules_without_the_stat_line(
    client: Client, core_catalog: None
) -> None:
    tut = fixture_card("munchkin-core", "King Tut")
    html = client.get(card_url("munchkin-core", "King Tut")).content.decode()
    rules = section(html, "rules-text")
    assert "monster" not in rules.lower() and "Treasure" not in rules  # no stat headline
    assert "Level 3 or lower" in rules  # its own rule, rendered from the encoding
    bad = section(html, "bad-stuff")
    assert "Discard all your items" in bad and "Bad Stuff:" not in bad
    assert facts(html) == {
        "Level": str(tut["level"]),
        "Treasures": str(tut["treasures"]),
        "Levels gained": str(tut["levels_gained"]),
        "Tags": "Undead",
        "Copies": str(tut.get("copies", 1)),
    }


def test_an_item_shows_only_the_stats_it_has(client: Client, core_catalog: None) -> None:
    saw = fixture_card("munchkin-core", "Chainsaw of Bloody Dismemberment")
    html = client.get(
        card_url("munchkin-core", "Chainsaw of Bloody Dismemberment")
    ).content.decode()
    assert saw["slot"] == "two_hands" and saw["big"] is True
    assert facts(html) == {
        "Bonus": f"+{saw['bonus']}",
        "Slot": "2 Hands",
        "Big": "Yes",
        "Gold": f"{saw['gold']} Gold Pieces",
        "Tags": ", ".join(str(t).capitalize() for t in saw["tags"]),
        "Copies": str(saw.get("copies", 1)),
    }
    # All its rules are stats: no rules text that would only repeat them.
    assert 'data-testid="rules-text"' not in html


def test_who_may_use_an_item_is_a_stat(client: Client, core_catalog: None) -> None:
    hammer = fixture_card("munchkin-core", "Hammer of Kneecapping")
    assert hammer["usable_by"] == {"race": "dwarf"}
    html = client.get(card_url("munchkin-core", "Hammer of Kneecapping")).content.decode()
    assert facts(html)["Usable by"] == "Dwarf"
    assert "Usable only by" not in html  # not said again as a sentence


def test_no_empty_facts_and_no_unknown(client: Client, core_catalog: None) -> None:
    for card in Card.objects.filter(card_set__code="munchkin-core"):
        html = client.get(card_url("munchkin-core", card.name)).content.decode()
        shown = facts(html) if 'data-testid="stats"' in html else {}
        for label, value in shown.items():
            assert value and value.lower() not in ("none", "unknown", "no", "0"), (card.name, label)
        assert ("Tags" in shown) == bool(card.tags), card.name


def test_a_provisional_card_shows_question_marks_and_its_description(
    client: Client, all_sets: None
) -> None:
    maybe = fixture_card("munchkin-impossible", "Dr. Maybe")
    assert maybe["encoding"]["status"] == "text_only" and maybe["copies"] is None
    html = client.get(card_url("munchkin-impossible", "Dr. Maybe")).content.decode()
    assert facts(html) == {
        "Level": "? provisional",
        "Treasures": "? provisional",
        "Levels gained": "? provisional",
    }
    assert 'data-testid="provisional-note"' in html
    assert " ".join(section(html, "description").split()) == " ".join(str(maybe["notes"]).split())
    player_part = html.split('class="rules-engine"')[0]
    assert "unknown" not in player_part.lower() and "not encoded (see" not in player_part

    slug = fixture_card("munchkin-spongebob", "Sinister Slug")
    assert slug["level"] is None and slug["treasures"] == 2
    shown = facts(client.get(card_url("munchkin-spongebob", "Sinister Slug")).content.decode())
    assert shown["Level"] == "? provisional" and shown["Treasures"] == "2"


@pytest.mark.parametrize("index", [0, 1, 76, -1])
def test_the_number_in_the_set_and_its_neighbours(
    client: Client, core_catalog: None, index: int
) -> None:
    names = [str(c["name"]) for c in fixture_cards("munchkin-core")]
    index %= len(names)
    html = client.get(card_url("munchkin-core", names[index])).content.decode()
    assert section(html, "set-number").strip() == f"{index + 1} of {len(names)}"
    prev = re.search(r'<a rel="prev" href="([^"]+)"', html)
    after = re.search(r'<a rel="next" href="([^"]+)"', html)
    if index == 0:
        assert prev is None
    else:
        assert prev and prev.group(1) == card_url("munchkin-core", names[index - 1])
    if index == len(names) - 1:
        assert after is None
    else:
        assert after and after.group(1) == card_url("munchkin-core", names[index + 1])


def test_other_printings_link_each_set_with_the_card(client: Client, all_sets: None) -> None:
    expected = sorted(
        path.stem
        for path in FIXTURE_SETS.glob("*.yaml")
        if path.stem != "munchkin-core"
        and any(c["name"] == "Super Munchkin" for c in fixture_cards(path.stem))
    )
    assert expected  # the fixtures print it in more than one set
    html = client.get(card_url("munchkin-core", "Super Munchkin")).content.decode()
    printings = re.search(r'data-testid="printings">(.*?)</ul>', html, re.S)
    assert printings
    links = re.findall(r'<li><a href="/sets/([^/]+)/super-munchkin/"', printings.group(1))
    assert sorted(links) == expected


def test_player_information_comes_before_the_folded_rules_engine(
    client: Client, core_catalog: None
) -> None:
    html = client.get(card_url("munchkin-core", "King Tut")).content.decode()
    order = [
        'data-testid="face"',
        'data-testid="rules-text"',
        'data-testid="stats"',
        '<details class="rules-engine"',
        'data-testid="encoding"',
        'data-testid="validation"',
        'data-testid="scenario-summary"',
    ]
    positions = [html.index(marker) for marker in order]
    assert positions == sorted(positions)
    details = re.search(r"<details class=\"rules-engine\"[^>]*>", html)
    assert details and " open" not in details.group(0)  # closed until asked for
    yaml_text = unescape(section(html, "encoding-yaml"))
    assert yaml.safe_load(yaml_text)["name"] == "King Tut"


def test_owner_tools_stay_reachable(
    client: Client, core_catalog: None, admin_client: Client
) -> None:
    url = card_url("munchkin-core", "King Tut")
    assert 'data-testid="history"' in client.get(url).content.decode()
    staff = admin_client.get(url).content.decode()
    assert 'data-testid="edit-card"' in staff and 'data-testid="history"' in staff


def test_a_missing_card_gets_the_site_404_page(client: Client, core_catalog: None) -> None:
    response = client.get("/sets/munchkin-core/no-such-card/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert 'data-testid="not-found"' in html and "/sets/munchkin-core/no-such-card/" in html
    assert 'class="site-header"' in html and 'id="error-search-input"' in html
    assert 'rel="icon"' in html


def test_the_api_keeps_its_json_404(client: Client) -> None:
    response = client.get("/api/v1/no-such-endpoint/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["object"] == "error" and body["status"] == 404


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


# This module is also a URLconf for the tests below: the site plus two views that fail.
urlpatterns = [path("boom/", boom), path("api/boom/", boom), *cardsite.urls.urlpatterns]
handler500 = cardsite.urls.handler500


@pytest.mark.urls(__name__)
def test_a_failing_page_gets_the_site_500_page(client: Client) -> None:
    client.raise_request_exception = False
    response = client.get("/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert 'data-testid="server-error"' in html and 'class="site-header"' in html
    assert 'action="/cards/"' in html and 'rel="icon"' in html


@pytest.mark.urls(__name__)
def test_a_failing_api_call_keeps_the_json_error_object(client: Client) -> None:
    client.raise_request_exception = False
    response = client.get("/api/boom/")
    assert response.status_code == 500
    body = response.json()
    assert body["object"] == "error" and body["status"] == 500 and body["errors"]


def test_the_500_page_needs_no_request_and_no_database(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    with django_assert_num_queries(0):
        html = loader.get_template("500.html").render()
    assert "Something went wrong" in html and "/static/catalog/favicon.svg" in html


def test_every_page_links_the_favicon(client: Client, core_catalog: None) -> None:
    card = card_url("munchkin-core", "King Tut")
    for url in ("/", "/sets/munchkin-core/", card, "/cards/syntax/", "/no-such-page/"):
        assert 'rel="icon" href="/static/catalog/favicon.svg"' in client.get(url).content.decode()
    svg = Path(str(finders.find("catalog/favicon.svg")))
    assert svg.read_text().lstrip().startswith("<svg")


def test_favicon_ico_leads_to_the_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/catalog/favicon.png"
    assert finders.find("catalog/favicon.png")


@pytest.mark.parametrize(("name", "page"), [("Help", "help"), ("Propose", "propose")])
def test_a_card_named_like_a_set_page_never_hides_it(name: str, page: str) -> None:
    """/sets/<code>/help/ and /propose/ are pages of the set; a card of that name gets
    another address so both stay reachable."""
    card_set = CardSet.objects.create(code="munchkin-test", name="Test", official=True)
    document = {"name": name, "deck": "door", "kind": "curse", "encoding": {"status": "full"}}
    card = card_write(card_set=card_set, typed=parse_card(document), actor=None, source="test")
    assert card.slug == f"{page}-card"
    client = Client()
    assert client.get(f"/sets/munchkin-test/{page}-card/").status_code == 200
    assert client.get(f"/sets/munchkin-test/{page}/").status_code in (200, 302)


# Issue 24: the core set plays one printing; another printing's wording shows on the page, in
# our words, with its source (the audit's: fdask/munchkin's comments follow a newer printing).
# The words each must carry come from the issue: the Halfling's newer text lets a failed first
# Run Away roll be rolled again for a discard; the Wizard's asks at least 3 cards for Charm.
@pytest.mark.parametrize(
    ("name", "words"), [("Halfling", ("roll", "card")), ("Wizard", ("Charm", "3 cards"))]
)
def test_other_printings_text_shows_with_its_source(
    client: Client, core_catalog: None, name: str, words: tuple[str, ...]
) -> None:
    html = client.get(card_url("munchkin-core", name)).content.decode()
    assert "Other printings&#x27; text" in html or "Other printings' text" in html
    variants = section(html, "printing-variants")
    provenance = fixture_card("munchkin-core", name)["provenance"]
    sources = {
        s["id"]: s["title"]
        for s in yaml.safe_load((FIXTURE_SETS / "munchkin-core.yaml").read_text())["sources"]
    }
    for printing in provenance["printings"]:
        assert " ".join(printing["text"].split()) in " ".join(variants.split())
        for source in printing["sources"]:
            assert sources[source] in variants
    assert "fdask/munchkin" in variants
    for word in words:
        assert word in variants
    block = re.search(r'data-testid="disputed">(.*?)</div>', html, re.S)
    assert block
    disputed = unescape(re.sub(r"<[^>]+>", " ", block.group(1)))
    assert "Disputed:" in disputed
    for reading in provenance["disputed"][0]["readings"]:
        assert " ".join(reading["text"].split()) in " ".join(disputed.split())


def test_a_card_with_one_wording_has_no_other_printings_text(
    client: Client, core_catalog: None
) -> None:
    html = client.get(card_url("munchkin-core", "Elf")).content.decode()
    assert 'data-testid="printing-texts"' not in html
