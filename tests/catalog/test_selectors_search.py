"""The syntax page's reference and the hints beside a search, on the real core set."""

import io

import pytest
import yaml
from django.contrib.auth.models import AnonymousUser, User
from django.core.management import call_command
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalog.models import Card
from catalog.search.keywords import KEYWORDS, KIND_ALIASES, accepted_values
from catalog.selectors import (
    MAX_HINT_TERMS,
    MAX_HINT_WORDS,
    QueryHint,
    SearchHints,
    search_suggestions,
    syntax_reference,
)
from catalog.services import set_create
from tests.conftest import CORE_SET, FIXTURE_SETS

pytestmark = pytest.mark.django_db

CORE = yaml.safe_load(CORE_SET.read_text())["cards"]


def core_count(*, kind: str | None = None, tag: str | None = None, level: int = 0) -> int:
    """Cards of the core set file with the kind, the tag and at least the level asked."""
    return sum(
        1
        for card in CORE
        if (kind is None or card["kind"] == kind)
        and (tag is None or tag in (card.get("tags") or []))
        and (card.get("level") or 0) >= level
    )


# --- the syntax page --------------------------------------------------------------------------


@pytest.fixture
def sets_of_alice(alice: User) -> None:
    for visibility in ("public", "unlisted", "private"):
        set_create(owner=alice, code=f"alice-{visibility}", name=visibility, visibility=visibility)


def test_the_syntax_page_lists_every_spelling_and_value(
    client: Client, core_catalog: None, sets_of_alice: None
) -> None:
    page = client.get("/cards/syntax/")
    assert page.status_code == 200
    html = page.content.decode()
    for keyword in KEYWORDS:
        for spelling in keyword.spellings:
            written = spelling if keyword.column else f"{spelling}:"
            assert f"<code>{written}</code>" in html, spelling
        for value in accepted_values(keyword.values):
            assert f"<code>{value}</code>" in html, value
    for short, kind in KIND_ALIASES.items():
        assert f"<code>{short}</code> for <code>{kind}</code>" in html
    assert '<code>textonly</code></a> <span class="value-label">Text only</span>' in html
    assert 'href="/cards/?q=t%3Amonster"><code>monster</code></a>' in html  # each runs
    # Values the contract names, from the parser's own lists (no copy kept by the page).
    for value in ("monster", "one_shot", "treasure", "undead", "footgear", "death", "textonly"):
        assert f"<code>{value}</code>" in html
    # set: lists the sets listed for the viewer, never an unlisted or private set.
    assert "<code>munchkin-core</code>" in html and "<code>alice-public</code>" in html
    assert "alice-unlisted" not in html and "alice-private" not in html


def test_the_owner_sees_their_own_sets_among_the_set_codes(
    core_catalog: None, sets_of_alice: None, alice: User
) -> None:
    rows = {row.keyword.name: row for row in syntax_reference(viewer=alice)}
    codes = [value.value for value in rows["set"].values]
    assert codes == sorted(["munchkin-core", "alice-public", "alice-unlisted", "alice-private"])
    assert rows["lvl"].operators == ("=", "!=", "<", "<=", ">", ">=")
    assert rows["t"].operators == (":", "=")


def test_each_example_on_the_syntax_page_runs_without_a_warning(
    client: Client, core_catalog: None
) -> None:
    call_command("load_catalog", str(FIXTURE_SETS / "munchkin-booty.yaml"), stdout=io.StringIO())
    for row in syntax_reference(viewer=AnonymousUser()):
        if row.keyword.name == "author":
            continue  # the example names a user the core catalog does not have
        answer = client.get("/api/cards/", {"q": row.keyword.example}).json()
        assert answer["warnings"] == [], row.keyword.example
        assert answer["total"] > 0, row.keyword.example


# --- hints: a corrected query, terms to loosen ------------------------------------------------


def test_an_empty_search_lists_each_term_whose_removal_finds_cards(core_catalog: None) -> None:
    query = "t:monster tag:undead lvl>=20"
    assert core_count(kind="monster", tag="undead", level=20) == 0
    hints = search_suggestions(query=query, viewer=AnonymousUser())
    expected = [
        (query, "tag:undead", core_count(kind="monster", level=20)),
        (query, "lvl>=20", core_count(kind="monster", tag="undead")),
    ]
    # Without t:monster nothing is found either (no undead card of level 20): not offered.
    assert core_count(tag="undead", level=20) == 0
    assert [(query, h.change, h.total) for h in hints.loosened] == expected
    assert hints.loosened[0] == QueryHint("t:monster lvl>=20", 1, "tag:undead")
    assert hints.corrected is None and hints.untried == 0


def test_an_order_is_never_offered_for_removal_and_stays_in_every_hint(
    core_catalog: None,
) -> None:
    hints = search_suggestions(
        query="t:monster tag:undead lvl>=20 order:level", viewer=AnonymousUser()
    )
    assert [h.change for h in hints.loosened] == ["tag:undead", "lvl>=20"]
    assert all(h.query.endswith(" order:level") for h in hints.loosened)


def test_a_misspelt_query_offers_the_corrected_one_with_its_count(core_catalog: None) -> None:
    hints = search_suggestions(query="t:monstr tag:undaed", viewer=AnonymousUser())
    assert hints.corrected == QueryHint(
        "t:monster tag:undead",
        core_count(kind="monster", tag="undead"),
        "t:monstr → t:monster, tag:undaed → tag:undead",
    )


def test_loosening_works_on_the_corrected_query(core_catalog: None) -> None:
    hints = search_suggestions(query="tpe:monster tag:undead lvl>=20", viewer=AnonymousUser())
    assert hints.corrected is not None and hints.corrected.total == 0
    assert [h.query for h in hints.loosened] == ["t:monster lvl>=20", "t:monster tag:undead"]


@pytest.mark.parametrize("query", ["t:monster", "chicken deck:door", "", "   "])
def test_no_hint_for_a_search_that_finds_cards_or_has_one_term(
    core_catalog: None, query: str
) -> None:
    assert not search_suggestions(query=query, viewer=AnonymousUser())


def test_a_search_that_nests_too_deep_gets_no_hint(core_catalog: None) -> None:
    assert search_suggestions(query="(" * 50 + "x", viewer=AnonymousUser()) == SearchHints()


def test_the_work_of_the_hints_stops_at_the_limit(core_catalog: None) -> None:
    def queries_for(terms: int) -> tuple[int, SearchHints]:
        # Each term alone finds cards; all of them together find none.
        query = " ".join(["t:monster", "t:curse"] + [f"bonus!={n}" for n in range(terms - 2)])
        with CaptureQueriesContext(connection) as captured:
            hints = search_suggestions(query=query, viewer=AnonymousUser(), total=0)
        return len(captured), hints

    at_limit, hints = queries_for(MAX_HINT_TERMS)
    assert hints.untried == 0
    beyond, hints = queries_for(MAX_HINT_TERMS + 6)
    assert hints.untried == 6
    assert beyond == at_limit  # terms past the limit cost nothing
    _, hints = queries_for(MAX_HINT_WORDS + 1)
    assert not hints.loosened  # a query this long is not loosened at all


def test_the_hints_partial_links_each_query(core_catalog: None) -> None:
    hints = search_suggestions(query="t:monstr tag:undead lvl>=20", viewer=AnonymousUser())
    html = render_to_string("catalog/_search_hints.html", {"hints": hints, "view": "list"})
    assert 'href="/cards/?q=t%3Amonster%20lvl%3E%3D20&amp;view=list"' in html
    assert "without <code>tag:undead</code>" in html
    assert render_to_string("catalog/_search_hints.html", {"hints": SearchHints()}).strip() == ""


def test_the_search_page_shows_the_hints(client: Client, core_catalog: None) -> None:
    html = client.get("/cards/", {"q": "tpe:monster tag:undead lvl>=20"}).content.decode()
    assert 'data-testid="search-hints"' in html
    assert 'href="/cards/?q=t%3Amonster%20tag%3Aundead%20lvl%3E%3D20"' in html  # corrected
    assert (
        f"without <code>tag:undead</code></a>: {core_count(kind='monster', level=20)} card" in html
    )
    html = client.get("/cards/", {"q": "t:monster tag:undead"}).content.decode()
    assert 'data-testid="search-hints"' not in html  # it found cards, spelt right


def test_the_syntax_page_lists_the_names_usable_and_vs_meet(core_catalog: None) -> None:
    rows = {row.keyword.name: row for row in syntax_reference(viewer=AnonymousUser())}
    # The core set has weapons only Elves may use and monsters worse against Warriors.
    assert "elf" in rows["usable"].seen and "warrior" in rows["vs"].seen
    assert rows["usable"].seen == sorted(rows["usable"].seen)
    assert rows["name"].seen == []
    Card.everything.filter(card_set__code="munchkin-core").update(deleted_at=timezone.now())
    rows = {row.keyword.name: row for row in syntax_reference(viewer=AnonymousUser())}
    assert rows["usable"].seen == []  # deleted cards name nothing
