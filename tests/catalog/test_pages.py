"""The server-rendered pages show the right content."""

import io
import re
from html import unescape as html_unescape
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from catalog.models import Card, CardSet
from catalog.selectors import set_browse
from tests.conftest import CORE_SET, FIXTURE_SETS

pytestmark = pytest.mark.django_db


def test_home_lists_every_set_with_counts(client: Client, core_catalog: None) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Munchkin" in html
    assert reverse("catalog:set_detail", args=["munchkin-core"]) in html
    core = yaml.safe_load(CORE_SET.read_text())["cards"]
    assert f'<dd data-count="cards">{len(core)}</dd>' in html
    assert f'<dd data-count="copies">{sum(c["copies"] for c in core)}</dd>' in html
    # Every core card's copies are known and add up to the box (168 cards, the rulebook).
    assert "the whole box of 168 cards" in html


def test_home_without_a_catalog_says_how_to_load_it(client: Client) -> None:
    assert "load_catalog" in client.get("/").content.decode()


def test_set_page_lists_and_filters_cards(client: Client, core_catalog: None) -> None:
    url = reverse("catalog:set_detail", args=["munchkin-core"])
    html = client.get(url).content.decode()
    assert "147 cards" in html and "Net Troll" in html and "Magic Missile" in html

    monsters = client.get(url, {"kind": "monster"}).content.decode()
    assert "37 cards" in monsters and "Net Troll" in monsters and "Magic Missile" not in monsters

    treasure = client.get(url, {"deck": "treasure"}).content.decode()
    assert "Magic Missile" in treasure and "Net Troll" not in treasure
    expected = Card.objects.filter(card_set__code="munchkin-core", deck="treasure").count()
    assert f"{expected} cards" in treasure

    curses = client.get(url, {"deck": "treasure", "kind": "curse"}).content.decode()
    assert "0 cards" in curses


def test_set_page_reports_unknown_filters(client: Client, core_catalog: None) -> None:
    url = reverse("catalog:set_detail", args=["munchkin-core"])
    response = client.get(url, {"kind": "monstr"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "not understood" in html and "monstr" in html and "Net Troll" not in html


def test_unknown_set_is_404(client: Client, core_catalog: None) -> None:
    assert client.get("/sets/no-such-set/").status_code == 404


def test_partial_card_lists_its_unencoded_clauses(client: Client, db: None) -> None:
    # Every core card is fully encoded since the core audit (issue 24): Booty has partial ones.
    call_command("load_catalog", str(FIXTURE_SETS / "munchkin-booty.yaml"), stdout=io.StringIO())
    partial = Card.objects.filter(encoding="partial").order_by("pk").first()
    assert partial is not None
    html = client.get(
        reverse("catalog:card_detail", args=["munchkin-booty", partial.slug])
    ).content.decode()
    assert "Not encoded yet" in html
    for clause in partial.document["encoding"]["clauses"]:
        assert clause.replace("'", "&#x27;").replace('"', "&quot;") in html


def test_unknown_card_is_404(client: Client, core_catalog: None) -> None:
    assert client.get("/sets/munchkin-core/no-such-card/").status_code == 404


def test_a_set_with_unknown_copies_says_so(client: Client, tmp_path: Path) -> None:
    import io
    import json

    from django.core.management import call_command

    path = tmp_path / "partial-set.yaml"
    cards = [
        {
            "name": "Known Ogre",
            "deck": "door",
            "kind": "monster",
            "copies": 2,
            "level": 3,
            "treasures": 1,
            "encoding": {"status": "full"},
        },
        {
            "name": "Mystery Card",
            "deck": None,
            "kind": "unknown",
            "copies": None,
            "notes": "Named in a rulebook.",
            "encoding": {"status": "text_only", "reason": "unknown"},
        },
    ]
    path.write_text(
        json.dumps(
            {
                "set": {"code": "partial-set", "name": "Partial Set", "cards_in_box": 168},
                "cards": cards,
            }
        )
    )
    call_command("load_catalog", str(path), stdout=io.StringIO())
    home = client.get("/").content.decode()
    expected = (
        "2 distinct cards catalogued; copies known for 1 of them (2 in all), not for the "
        "other 1. The box holds 168 cards."
    )
    assert expected in home
    assert '<dd data-count="neither">1</dd>' in home  # the card outside both decks
    page = client.get("/sets/partial-set/").content.decode()
    assert expected in page
    card = client.get("/sets/partial-set/mystery-card/").content.decode()
    assert "Named in a rulebook." in card and "Kind not known yet" in card


def test_search_page_is_a_permalink_with_results(client: Client, core_catalog: None) -> None:
    html = client.get("/cards/", {"q": "set:munchkin-core t:monster lvl>=16"}).content.decode()
    assert '<p class="result-count" aria-live="polite" data-testid="total">6 cards</p>' in html
    assert "Plutonium Dragon" in html and "Net Troll" not in html
    assert 'value="set:munchkin-core t:monster lvl&gt;=16"' in html  # the box keeps the query


def test_search_page_shows_warnings_not_errors(client: Client, core_catalog: None) -> None:
    response = client.get("/cards/", {"q": "t:monstr ((("})
    assert response.status_code == 200
    html = response.content.decode()
    assert "did you mean &#x27;monster&#x27;?" in html and "never closed" in html


def test_search_pages_through_results(client: Client, core_catalog: None) -> None:
    html = client.get("/cards/", {"q": "set:munchkin-core"}).content.decode()
    assert "147 cards" in html and "Page 1 of 3" in html and 'rel="next"' in html
    html = client.get("/cards/", {"q": "set:munchkin-core", "page": "3"}).content.decode()
    assert "Page 3 of 3" in html and 'rel="prev"' in html


def test_help_page_links_every_example(client: Client) -> None:
    html = client.get("/cards/syntax/").content.decode()
    assert html.count('href="/cards/?q=') >= 20
    assert "/cards/?q=t%3Amonster" in html


def test_every_page_has_the_search_box(client: Client, core_catalog: None) -> None:
    for url in ("/", "/sets/munchkin-core/", "/sets/munchkin-core/net-troll/", "/cards/syntax/"):
        assert 'role="search"' in client.get(url).content.decode(), url


def test_results_as_a_grid_of_faces_or_a_list(client: Client, core_catalog: None) -> None:
    grid = client.get("/cards/", {"q": "tag:undead"}).content.decode()
    assert grid.count('<img src="/faces/') == 4 and 'alt="King Tut (munchkin-core)"' in grid
    listed = client.get("/cards/", {"q": "tag:undead", "view": "list"}).content.decode()
    assert '<img src="/faces/' not in listed and "<table" in listed and "King Tut" in listed
    assert "order:level" in grid  # order links keep the query


def test_random_card_goes_to_a_card_page(client: Client, core_catalog: None) -> None:
    response = client.get("/cards/random/")
    assert response.status_code == 302 and response["Location"].startswith("/sets/munchkin-core/")
    assert client.get(response["Location"]).status_code == 200


def test_random_card_with_no_catalog_is_404(client: Client) -> None:
    assert client.get("/cards/random/").status_code == 404


def test_card_page_links_other_printings(client: Client) -> None:
    import io

    from django.core.management import call_command

    call_command("load_catalog", stdout=io.StringIO())
    page = client.get("/sets/munchkin-core/super-munchkin/").content.decode()
    assert "Other printings" in page
    for code in ("munchkin-booty", "munchkin-impossible", "munchkin-spongebob", "munchkin-super"):
        assert f"/sets/{code}/super-munchkin/" in page


# --- the set page for players: views, orders, the rules engine folded away (issue 17) ----------

SET_URL = "/sets/munchkin-core/"


def core_cards() -> list[dict[str, object]]:
    cards: list[dict[str, object]] = yaml.safe_load(CORE_SET.read_text())["cards"]
    return cards


def test_set_page_is_a_grid_of_lazy_faces_with_the_rules_engine_last(
    client: Client, core_catalog: None
) -> None:
    html = client.get(SET_URL).content.decode()
    faces = re.findall(r'<img src="/faces/[^>]*>', html)
    assert len(faces) == len(core_cards())
    assert all('loading="lazy"' in f and 'width="' in f and 'height="' in f for f in faces)
    # The coverage table sits in a closed "Rules engine" section after the cards.
    assert '<details class="rules-engine" data-testid="rules-engine">' in html
    assert html.index('data-testid="grid"') < html.index('data-testid="coverage"')


def test_set_list_view_shows_stats_and_rules_text(client: Client, core_catalog: None) -> None:
    html = client.get(SET_URL, {"view": "list", "kind": "monster"}).content.decode()
    assert '<img src="/faces/' not in html and 'data-testid="list"' in html
    row = html[html.index(">Net Troll<") :]
    row = row[: row.index("</tr>")]
    # The fixture: Level 10, 3 Treasures; its Bad Stuff lets the top-Level players take an item.
    assert "Level 10 · 3 Treasures" in row
    assert "Bad Stuff:" in row and "highest Level" in row


def test_set_checklist_numbers_cards_in_the_set_files_order(
    client: Client, core_catalog: None
) -> None:
    html = client.get(SET_URL, {"view": "checklist"}).content.decode()
    assert 'data-testid="checklist"' in html
    assert html.count('<span class="box" aria-hidden="true"></span>') == len(core_cards())
    number = [c["name"] for c in core_cards()].index("Net Troll") + 1
    assert re.search(rf'<td class="num">{number}</td>\s*<td><a href="[^"]*">Net Troll</a>', html)


def test_set_page_sorts(client: Client, core_catalog: None) -> None:
    monsters = [c for c in core_cards() if c["kind"] == "monster"]
    highest = max(monsters, key=lambda c: int(str(c["level"])))["name"]
    html = client.get(SET_URL, {"view": "list", "order": "level", "dir": "desc"}).content.decode()
    first = re.search(r'<td class="name"><a href="[^"]*">([^<]*)</a>', html)
    assert first is not None and first.group(1) == highest

    html = client.get(SET_URL, {"view": "checklist", "order": "name"}).content.decode()
    names = re.findall(r'<td><a href="/sets/munchkin-core/[^"]*">([^<]*)</a>', html)
    assert [html_unescape(n) for n in names] == sorted(str(c["name"]) for c in core_cards())


def test_view_links_keep_the_filters(client: Client, core_catalog: None) -> None:
    html = client.get(SET_URL, {"kind": "monster", "order": "level"}).content.decode()
    assert 'href="?kind=monster&amp;order=level&amp;view=checklist"' in html


@pytest.mark.parametrize(
    ("parameters", "accepted"),
    [
        ({"view": "table"}, "grid, list, checklist"),
        ({"order": "power"}, "number, name, kind"),
        ({"dir": "up"}, "asc, desc"),
        ({"page": "two"}, "pages are numbered from 1"),
        ({"page": "0"}, "pages are numbered from 1"),
        ({"page": "2"}, "there is no page 2: this list has 1 page"),
    ],
)
def test_set_page_reports_bad_views_orders_and_pages(
    client: Client, core_catalog: None, parameters: dict[str, str], accepted: str
) -> None:
    response = client.get(SET_URL, parameters)
    assert response.status_code == 400
    html = response.content.decode()
    assert accepted in html and "Net Troll" not in html


def test_search_views_share_the_set_pages_partials(client: Client, core_catalog: None) -> None:
    listed = client.get("/cards/", {"q": "t:monster lvl>=18", "view": "list"}).content.decode()
    assert 'data-testid="list"' in listed and "Level 20 · 5 Treasures" in listed
    checklist = client.get("/cards/", {"q": "t:monster lvl>=18", "view": "checklist"})
    html = checklist.content.decode()
    assert checklist.status_code == 200 and 'data-testid="checklist"' in html
    assert "<code>munchkin-core</code>" in html  # search's set column


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"view": "table"}, "grid, list, checklist"),
        ({"page": "x"}, "is not a page number"),
        ({"page": "9"}, "there is no page 9: this list has 1 page"),
    ],
)
def test_search_reports_bad_views_and_pages(
    client: Client, core_catalog: None, parameters: dict[str, str], message: str
) -> None:
    response = client.get("/cards/", {"q": "tag:undead", **parameters})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and "King Tut" not in html


def test_an_empty_search_says_nothing_matched(client: Client, core_catalog: None) -> None:
    html = client.get("/cards/", {"q": "lvl>=99"}).content.decode()
    assert 'data-testid="total">0 cards' in html and "No cards match this search." in html


def test_a_big_set_is_paged_and_keeps_its_numbers(core_catalog: None) -> None:
    core = CardSet.objects.get(code="munchkin-core")
    total = len(core_cards())
    last = set_browse(card_set=core, page=3, per_page=50)
    assert (last.num_pages, last.has_next, last.has_previous) == (3, False, True)
    assert [e.number for e in last.entries] == list(range(101, total + 1))
    assert [e.card.name for e in last.entries] == [str(c["name"]) for c in core_cards()[100:]]
    assert set_browse(card_set=core, page=4, per_page=50).out_of_range
