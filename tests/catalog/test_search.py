"""The query language: the parser (no database) and its results on the real core set."""

import json

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client

from catalog.models import CardSet
from catalog.search import MAX_NESTING, QueryTooComplex
from catalog.search.parser import MAX_QUERY_LENGTH, And, Not, Or, Term, parse
from catalog.selectors import card_search
from catalog.services import set_create


def names(query: str) -> tuple[list[str], list[str]]:
    cards, warnings = card_search(query=query, viewer=AnonymousUser())
    return [c.name for c in cards], warnings


def test_terms_are_anded_and_or_binds_looser() -> None:
    node = parse("a or b c").node
    assert isinstance(node, Or)
    assert node.nodes[0] == Term(None, ":", "a", raw="a")
    assert isinstance(node.nodes[1], And)


def test_negation_and_groups() -> None:
    node = parse("-(tag:undead or tag:shark) t:monster").node
    assert isinstance(node, And)
    assert isinstance(node.nodes[0], Not) and isinstance(node.nodes[0].node, Or)


@pytest.mark.parametrize(
    ("query", "key", "op", "value"),
    [
        ('name:"boots of"', "name", ":", "boots of"),
        ("lvl>=16", "lvl", ">=", "16"),
        ("gold<=400", "gold", "<=", "400"),
        ("bonus!=3", "bonus", "!=", "3"),
        ("T=Monster", "t", "=", "Monster"),
        ('o:"lose 2 levels"', "o", ":", "lose 2 levels"),
    ],
)
def test_keyed_terms(query: str, key: str, op: str, value: str) -> None:
    node = parse(query).node
    assert isinstance(node, Term) and (node.key, node.op, node.value) == (key, op, value)


def test_exact_name() -> None:
    node = parse('!"Net Troll"').node
    assert node == Term("name", ":", "Net Troll", exact=True, raw='!"Net Troll"')


@pytest.mark.parametrize(
    ("query", "warning"),
    [
        ("(a", "never closed"),
        ("a)", "closes no"),
        ("a or", "nothing after it"),
        ("a -", "nothing after it"),
        ("x" * (MAX_QUERY_LENGTH + 5), "longer than"),
    ],
)
def test_malformed_queries_warn_and_never_raise(query: str, warning: str) -> None:
    parsed = parse(query)
    assert any(warning in w for w in parsed.warnings), parsed.warnings


pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_the_six_core_monsters_of_level_16_and_above(core_catalog: None) -> None:
    found, warnings = names("set:munchkin-core t:monster lvl>=16")
    assert warnings == []
    assert sorted(found) == [
        "Bullrog",
        "Hippogriff",
        "King Tut",
        "Plutonium Dragon",
        "Squidzilla",
        "Wight Brothers",
    ]


@pytestmark_db
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("chicken", {"Curse! Chicken on Your Head", "Large Angry Chicken"}),
        ('!"net troll"', {"Net Troll"}),
        ("name:boots", {"Boots of Butt-Kicking", "Boots of Running Really Fast"}),
        ("tag:undead", {"King Tut", "Mr. Bones", "Undead Horse", "Wight Brothers"}),
        ("usable:elf", {"Bow with Ribbons", "Rapier of Unfairness"}),
        (
            "deck:treasure slot:footgear",
            {"Boots of Butt-Kicking", "Boots of Running Really Fast", "Sandals of Protection"},
        ),
        ("t:monster_enhancer", {"Ancient", "Baby", "Enraged", "Humongous", "Intelligent"}),
        ("t:monster vs:warrior", {"Shrieking Geek", "Unspeakably Awful Indescribable Horror"}),
        ("t:monster tr>=5", {"Bullrog", "Plutonium Dragon"}),
        ("t:monster (lvl=18 or lvl=20)", {"Bullrog", "Squidzilla", "Plutonium Dragon"}),
        ("is:partial", {"Tuba of Charm"}),
    ],
)
def test_queries_on_the_core_set(core_catalog: None, query: str, expected: set[str]) -> None:
    found, warnings = names(query)
    assert warnings == []
    assert set(found) == expected


@pytestmark_db
def test_bad_stuff_and_negation(core_catalog: None) -> None:
    deadly, _ = names("bad:death")
    assert "Bullrog" in deadly and "Lame Goblin" not in deadly
    not_deadly, _ = names("t:monster -bad:death")
    assert len(deadly) + len(not_deadly) == 37


@pytestmark_db
def test_order_and_direction(core_catalog: None) -> None:
    found, _ = names("t:monster order:level direction:desc")
    assert found[:2] == ["Plutonium Dragon", "Bullrog"]
    found, _ = names("t:monster order:level")
    assert found[0] in {"Crabs", "Drooling Slime", "Lame Goblin", "Maul Rat", "Potted Plant"}


@pytestmark_db
@pytest.mark.parametrize(
    ("query", "warning"),
    [
        ("t:monstr", "did you mean 'monster'?"),
        ("set:munchkin-cor", "did you mean 'munchkin-core'?"),
        ("tag:undaed", "did you mean 'undead'?"),
        ("lvl>=ten", "not a whole number"),
        ("colour:red", "colour: is not a keyword"),
        ("is:biig", "did you mean 'big'?"),
        ("order:power", "unknown order"),
    ],
)
def test_bad_terms_give_warnings_not_errors(core_catalog: None, query: str, warning: str) -> None:
    found, warnings = names(query)
    assert any(warning in w for w in warnings), warnings
    assert found == []  # nothing usable was asked, so no card is shown as if it matched


# --- warnings name only the sets the asker may list (issue 15, item 9) ------------------------

HIDDEN = ("alice-unlisted", "alice-private")


@pytest.fixture
def alices_sets(alice: User) -> None:
    for visibility in ("public", "unlisted", "private"):
        set_create(owner=alice, code=f"alice-{visibility}", name=visibility, visibility=visibility)


def search_answers(client: Client, query: str) -> str:
    """The search page's and the API's answers to a query, as text."""
    page = client.get("/cards/", {"q": query}).content.decode()
    api = client.get("/api/cards/", {"q": query}).json()
    return page + json.dumps(api["warnings"])


@pytestmark_db
@pytest.mark.parametrize("query", ["set:qqqq", "set:alice-unlistd", "set:alice-privat"])
@pytest.mark.parametrize("asker", ["anonymous", "bob"])
def test_set_warnings_never_name_anothers_unlisted_or_private_set(
    client: Client, alices_sets: None, bob: User, asker: str, query: str
) -> None:
    if asker == "bob":
        client.force_login(bob)
    answers = search_answers(client, query)
    assert "unknown set" in answers
    assert not [code for code in HIDDEN if code in answers], answers
    _, warnings = card_search(query=query, viewer=bob if asker == "bob" else AnonymousUser())
    assert "alice-public" in warnings[0]  # listed sets are still suggested or listed


@pytestmark_db
@pytest.mark.parametrize("query", ["set:alice-private", "set:alice-privat", "set:alice-unlistd"])
def test_hidden_sets_change_nothing_in_anothers_warnings(
    alices_sets: None, bob: User, query: str
) -> None:
    _, with_them = card_search(query=query, viewer=bob)
    CardSet.everything.filter(code__in=HIDDEN).delete()
    _, without_them = card_search(query=query, viewer=bob)
    assert with_them == without_them


@pytestmark_db
def test_the_owner_is_still_offered_their_own_sets(alices_sets: None, alice: User) -> None:
    _, warnings = card_search(query="set:alice-unlistd", viewer=alice)
    assert "did you mean 'alice-unlisted'?" in warnings[0]
    _, warnings = card_search(query="set:alice-unlisted", viewer=AnonymousUser())
    assert warnings == []  # the code reaches an unlisted set, like its link


def test_nesting_beyond_the_limit_is_refused_and_within_it_parses() -> None:
    inner = parse("(" * MAX_NESTING + "x").node
    assert isinstance(inner, Term) and inner.value == "x"
    assert parse("-" * MAX_NESTING + "x").node is not None
    for query in ("(" * (MAX_NESTING + 1) + "x", "-(" * 11 + "x"):
        with pytest.raises(QueryTooComplex, match=f"more than {MAX_NESTING} deep"):
            parse(query)


@pytest.mark.parametrize("value", ["1" + "0" * 30, str(2**63), "²", "٣"])
def test_numbers_beyond_any_column_warn_instead_of_overflowing(
    core_catalog: None, value: str
) -> None:
    cards, warnings = card_search(query=f"level>{value}", viewer=AnonymousUser())
    assert "is not a whole number from -1,000,000,000 to 1,000,000,000" in warnings[0]
    assert list(cards) == []
