"""The card page says where a card's facts come from (issue 18, point 4): its sources resolved
through its set's `sources:` and grouped by kind, the confidence in plain words, the players'
contributions a curator accepted, and a provisional badge for an uncertain name.

Expectations come from the set files: TINY_BOX (tests/catalog/conftest.py) and, when it has
its sources, the Super Munchkin fixture."""

import datetime
import io
import re
from html import unescape
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from catalog.models import Card, CardSet
from catalog.selectors import card_provenance
from catalog.services import card_create, set_create
from tests.catalog.conftest import TINY_BOX
from tests.conftest import FIXTURE_SETS
from tests.factories import monster_document

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def provenance_section(html: str) -> str:
    match = re.search(r'<section class="provenance".*?</section>', html, re.S)
    assert match, "no provenance section"
    return match.group(0)


def page(client: Client, code: str, name: str) -> str:
    card = Card.objects.get(card_set__code=code, name=name)
    response = client.get(f"/sets/{code}/{card.slug}/")
    assert response.status_code == 200
    return response.content.decode()


TINY = yaml.safe_load(TINY_BOX)
SOURCES = {source["id"]: source for source in TINY["sources"]}


def test_the_sources_are_grouped_by_kind_with_their_titles(
    client: Client, tiny_box: CardSet
) -> None:
    html = provenance_section(page(client, "tiny-box", "Known Ogre"))
    # Known Ogre cites the rulebook and the code source, not the web page.
    rulebook = re.search(r'data-testid="sources-rulebook">(.*?)</ul>', html, re.S)
    code = re.search(r'data-testid="sources-code">(.*?)</ul>', html, re.S)
    assert rulebook and code and 'data-testid="sources-web"' not in html
    assert SOURCES["rb"]["title"] in unescape(rulebook.group(1))
    assert SOURCES["rb"]["used_for"] in unescape(rulebook.group(1))
    code_text = text_of(code.group(1))
    assert SOURCES["gh"]["title"] in code_text
    assert SOURCES["gh"]["repo"] in code_text and SOURCES["gh"]["path"] in code_text
    # Rulebook before Code, as on every card page.
    assert html.index("sources-rulebook") < html.index("sources-code")


def test_a_web_source_links_its_address_without_giving_the_page_away(
    client: Client, tiny_box: CardSet
) -> None:
    html = provenance_section(page(client, "tiny-box", "Half Ogre"))
    link = re.search(r'<a href="([^"]+)" rel="([^"]+)">([^<]+)</a>', html)
    assert link, html
    assert link.group(1) == SOURCES["wiki"]["url"]
    assert "noopener" in link.group(2).split()
    assert unescape(link.group(3)) == SOURCES["wiki"]["title"]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Known Ogre", "Sources agree"),
        ("Mystery Card", "One source, or sources differ slightly"),
        ("Half Ogre", "Unsure: a value is inferred or missing"),
    ],
)
def test_the_confidence_in_plain_words(
    client: Client, tiny_box: CardSet, name: str, words: str
) -> None:
    html = provenance_section(page(client, "tiny-box", name))
    confidence = re.search(r'data-testid="confidence">(.*?)</p>', html, re.S)
    assert confidence and words in text_of(confidence.group(1))


def test_an_uncertain_name_is_marked_provisional_near_it(client: Client, tiny_box: CardSet) -> None:
    html = page(client, "tiny-box", "Half Ogre")
    badge = re.search(r'data-testid="provisional-name">(.*?)</p>', html, re.S)
    assert badge and "Provisional" in badge.group(1)
    assert "printed name may differ" in text_of(badge.group(1))
    # Near the name: right under the heading, before the rules and stats.
    assert html.index('id="card-name"') < html.index("provisional-name") < html.index("facts-title")
    assert 'data-testid="provisional-name"' not in page(client, "tiny-box", "Known Ogre")


def test_a_contribution_recorded_in_the_set_file_is_shown(
    client: Client, tiny_box: CardSet
) -> None:
    contribution = next(c for c in TINY["cards"] if c["name"] == "Shiny Hat")["provenance"][
        "contributions"
    ][0]
    html = provenance_section(page(client, "tiny-box", "Shiny Hat"))
    items = re.search(r'data-testid="contributions">(.*?)</ul>', html, re.S)
    assert items
    text = text_of(items.group(1))
    assert (
        f"Bonus proposed by {contribution['proposer']}, accepted by {contribution['curator']} "
        f"on 20 Nov 2026 (revision {contribution['revision']})"
    ) in text
    # The evidence is the proposer's and the curators' (issue 18); the card page keeps it out.
    assert contribution["evidence"] not in html


def test_an_accepted_proposal_is_shown_with_who_and_when(
    client: Client, tiny_box: CardSet, alice: User, bob: User, accept_contribution: Any
) -> None:
    half = Card.objects.get(card_set=tiny_box, name="Half Ogre")
    accepted = accept_contribution(
        half, {**half.document, "treasures": 2}, proposer=alice, curator=bob
    )
    today = timezone.now().astimezone(datetime.UTC).date()
    html = provenance_section(page(client, "tiny-box", "Half Ogre"))
    items = re.search(r'data-testid="contributions">(.*?)</ul>', html, re.S)
    assert items
    assert (
        f"Treasures proposed by alice, accepted by bob on {today.day} {today:%b %Y} "
        f"(revision {accepted.revision})"
    ) in text_of(items.group(1))
    assert "My own copy of the card, bought in 2006" not in html  # the evidence stays private


def test_the_section_comes_after_the_player_information_and_before_the_rules_engine(
    client: Client, tiny_box: CardSet
) -> None:
    html = page(client, "tiny-box", "Known Ogre")
    assert html.index('data-testid="stats"') < html.index('class="provenance"')
    assert html.index('class="provenance"') < html.index('data-testid="rules-engine"')


def test_a_card_without_recorded_sources_says_so(client: Client, tiny_box: CardSet) -> None:
    html = provenance_section(page(client, "tiny-box", "Star Role"))
    assert 'data-testid="no-provenance"' in html
    assert card_provenance(card=Card.objects.get(name="Star Role")).recorded is False


def test_a_custom_card_names_its_maker(client: Client, alice: User) -> None:
    card_set = set_create(owner=alice, code="alice-ogres", name="Ogres", visibility="public")
    card = card_create(card_set=card_set, actor=alice, document=monster_document())
    html = provenance_section(client.get(f"/sets/alice-ogres/{card.slug}/").content.decode())
    assert "Made by" in html and 'href="/accounts/alice/"' in html
    assert 'data-testid="confidence"' not in html


def test_the_super_munchkin_fixtures_sources_are_on_its_card_page(client: Client) -> None:
    data = yaml.safe_load((FIXTURE_SETS / "munchkin-super.yaml").read_text(encoding="utf-8"))
    sources = {s["id"]: s for s in data.get("sources") or []}
    raw = next(c for c in data["cards"] if c["name"] == "Generic Guy")
    cited = (raw.get("provenance") or {}).get("sources") or []
    if not sources or not cited:
        pytest.skip("the Super Munchkin fixture has no sources for Generic Guy yet")
    call_command("load_catalog", str(FIXTURE_SETS / "munchkin-super.yaml"), stdout=io.StringIO())
    html = provenance_section(page(client, "munchkin-super", "Generic Guy"))
    for source_id in cited:
        assert unescape(sources[source_id]["title"]) in unescape(html), source_id
    confidence = raw["provenance"].get("confidence")
    words = {"high": "Sources agree", "low": "Unsure"}.get(confidence or "", "")
    assert words in text_of(html)


@pytest.fixture
def booty(db: None) -> None:
    call_command("load_catalog", str(FIXTURE_SETS / "munchkin-booty.yaml"), stdout=io.StringIO())


def test_a_slot_guessed_from_the_name_says_so(client: Client, booty: None) -> None:
    """Thigh Boots are Footgear by their name alone (the reference's third audit): the page
    says the slot is a guess, not a fact a source gives."""
    html = provenance_section(page(client, "munchkin-booty", "Thigh Boots"))
    guessed = re.search(r'data-testid="guessed-stat">(.*?)</p>', html, re.S)
    assert guessed
    assert text_of(guessed.group(1)) == (
        "Slot guessed from the card's name: no source states it, so the printed card may differ."
    )


def test_the_guessed_slot_is_marked_where_the_stats_are(client: Client, booty: None) -> None:
    # A player reading the stats sees the guess there, not only in the sources below.
    html = page(client, "munchkin-booty", "Thigh Boots")
    stat = re.search(r"<dt>Slot</dt><dd>(.*?)</dd>", html, re.S)
    assert stat
    assert text_of(stat.group(1)) == "Footgear guessed"
    assert 'data-testid="guessed-slot"' in stat.group(1)


def test_a_card_with_no_guessed_stat_shows_no_guess(client: Client, booty: None) -> None:
    html = page(client, "munchkin-booty", "Jellyfish")
    assert 'data-testid="guessed-stat"' not in provenance_section(html)
    assert 'data-testid="guessed-' not in html
