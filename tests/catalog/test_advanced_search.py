"""The advanced search: the query it writes (a pure function), its form and its page."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client

from catalog.forms_advanced import STAT_LIMIT, AdvancedSearchForm
from catalog.search.builder import Criteria, build_query
from catalog.search.parser import And, Term, parse
from catalog.services import set_create

# --- the query written ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("criteria", "query"),
    [
        (Criteria(), ""),
        (Criteria(name="boots"), "name:boots"),
        (Criteria(name="  Boots of  Running "), 'name:"Boots of Running"'),
        (Criteria(name='The "Real" Deal'), 'name:"The Real Deal"'),
        (Criteria(name="Curse! (Chicken)"), 'name:"Curse! (Chicken)"'),
        (Criteria(text="lose 2 levels"), 'o:"lose 2 levels"'),
        (Criteria(kind="monster", ranges={"lvl": (3, 10)}), "t:monster lvl>=3 lvl<=10"),
        (Criteria(ranges={"lvl": (None, 10), "tr": (2, None)}), "lvl<=10 tr>=2"),
        (Criteria(ranges={"gold": (400, 400)}), "gold=400"),
        (Criteria(ranges={"bonus": (-1, None)}), "bonus>=-1"),
        (Criteria(tags=["undead", "in-black"]), "tag:undead tag:in-black"),
        (Criteria(is_flags=["big"], not_flags=["official"]), "is:big not:official"),
        (Criteria(deck="treasure", slot="footgear"), "deck:treasure slot:footgear"),
        (Criteria(usable="elf", vs="warrior", bad="death"), "usable:elf vs:warrior bad:death"),
        (Criteria(set_code="munchkin-core", author="alice"), "set:munchkin-core author:alice"),
        (
            Criteria(kind="monster", order="level", descending=True),
            "t:monster order:level direction:desc",
        ),
        (Criteria(kind="monster", order="gold"), "t:monster order:gold"),
    ],
)
def test_build_query(criteria: Criteria, query: str) -> None:
    assert build_query(criteria) == query


def test_a_written_query_parses_back_to_its_values() -> None:
    written = build_query(Criteria(name='Boots "of" Running', ranges={"lvl": (3, 10)}))
    parsed = parse(written)
    assert parsed.warnings == []
    assert isinstance(parsed.node, And)
    terms = [(t.key, t.op, t.value) for t in parsed.node.nodes if isinstance(t, Term)]
    assert terms == [("name", ":", "Boots of Running"), ("lvl", ">=", "3"), ("lvl", "<=", "10")]


# --- the form ---------------------------------------------------------------------------------


def form(**data: str | list[str]) -> AdvancedSearchForm:
    return AdvancedSearchForm(data, sets=[("munchkin-core", "Munchkin")])


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"lvl_min": "abc"}, "lvl_min", "Enter a whole number."),
        ({"lvl_min": "10", "lvl_max": "3"}, "lvl_max", "Level: 3 is below the lowest, 10."),
        ({"tr_min": "-1"}, "tr_min", "greater than or equal to 0"),
        ({"gold_max": str(STAT_LIMIT + 1)}, "gold_max", f"less than or equal to {STAT_LIMIT}"),
        ({"kind": "dragon"}, "kind", "Select a valid choice"),
        ({"set_code": "munchkin-booty"}, "set_code", "Select a valid choice"),
        ({"is_flags": ["big"], "not_flags": ["big"]}, "not_flags", "both to be and not to be: big"),
        ({"name": "x" * 201}, "name", "at most 200 characters"),
    ],
)
def test_invalid_fields_are_reported_on_the_field(
    data: dict[str, str | list[str]], field: str, message: str
) -> None:
    checked = form(**data)
    assert not checked.is_valid()
    assert any(message in error for error in checked.errors[field]), checked.errors


def test_the_negative_bonus_is_a_valid_bound() -> None:
    checked = form(bonus_min="-3", bonus_max="-1")
    assert checked.is_valid(), checked.errors
    assert build_query(checked.criteria()) == "bonus>=-3 bonus<=-1"


# --- the page ---------------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_a_blank_form_is_a_page_not_an_error(client: Client, core_catalog: None) -> None:
    page = client.get("/cards/advanced/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<label for="id_lvl_min">Level at least' in html
    assert '<option value="munchkin-core">Munchkin (munchkin-core)</option>' in html


@pytestmark_db
def test_submitting_lands_on_the_permalink(client: Client, core_catalog: None) -> None:
    answer = client.get(
        "/cards/advanced/",
        {"name": "", "kind": "monster", "lvl_min": "16", "tags": "undead", "direction": "asc"},
    )
    assert answer.status_code == 302
    address = urlsplit(answer["Location"])
    assert address.path == "/cards/"
    assert parse_qs(address.query) == {"q": ["t:monster tag:undead lvl>=16"]}
    # The permalink finds the undead monsters of level 16 or more: King Tut, Wight Brothers.
    api = client.get("/api/cards/", {"q": "t:monster tag:undead lvl>=16"}).json()
    assert sorted(card["name"] for card in api["data"]) == ["King Tut", "Wight Brothers"]


@pytestmark_db
@pytest.mark.parametrize(
    "data",
    [
        {"lvl_min": "abc"},
        {"lvl_min": "10", "lvl_max": "3"},
        {"gold_min": "-5"},
        {"order": "power"},
        {"direction": "asc"},  # nothing asked: an empty search
    ],
)
def test_invalid_input_re_renders_the_form_with_status_400(
    client: Client, core_catalog: None, data: dict[str, str]
) -> None:
    page = client.get("/cards/advanced/", data)
    assert page.status_code == 400
    assert 'data-testid="form-errors"' in page.content.decode()
    for name, value in data.items():  # what was typed is kept
        if name != "direction":
            assert f'value="{value}"' in page.content.decode()


@pytestmark_db
def test_the_preview_answers_the_query_so_far(client: Client, core_catalog: None) -> None:
    answer = client.get("/cards/advanced/", {"preview": "1", "name": "net troll"})
    assert answer.status_code == 200
    assert answer.json() == {"query": 'name:"net troll"', "errors": {}}
    answer = client.get("/cards/advanced/", {"preview": "1", "lvl_min": "x"})
    assert answer.status_code == 200  # the answer, not a failed request
    assert answer.json() == {"query": "", "errors": {"lvl_min": ["Enter a whole number."]}}


@pytestmark_db
def test_the_set_choices_are_the_sets_listed_for_the_viewer(
    client: Client, alice: User, bob: User
) -> None:
    for visibility in ("public", "unlisted", "private"):
        set_create(owner=alice, code=f"alice-{visibility}", name=visibility, visibility=visibility)
    client.force_login(bob)
    html = client.get("/cards/advanced/").content.decode()
    assert 'value="alice-public"' in html
    assert "alice-unlisted" not in html and "alice-private" not in html
    client.force_login(alice)
    html = client.get("/cards/advanced/").content.decode()
    assert 'value="alice-unlisted"' in html and 'value="alice-private"' in html


@pytestmark_db
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("lvl_min", "9" * 5000),
        ("gold_max", "1e400"),
        ("tags", "dragon"),
        ("is_flags", "shiny"),
        ("name", "nul\x00byte"),
        ("direction", "sideways"),
        ("set_code", "../../etc"),
    ],
)
def test_bad_input_is_a_400_never_a_server_error(
    client: Client, core_catalog: None, name: str, value: str
) -> None:
    assert client.get("/cards/advanced/", {name: value}).status_code == 400
    preview = client.get("/cards/advanced/", {name: value, "preview": "1"}).json()
    assert preview["query"] == "" and name in preview["errors"]
