"""Word search through the database's full-text index (FTS5 on SQLite, tsvector on PostgreSQL)."""

import re
from importlib import import_module

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from catalog.models import Card, CardTag
from catalog.search import fulltext
from catalog.selectors import card_search
from tests.catalog.conftest import keep_only_indexes


def names(query: str) -> set[str]:
    cards, warnings = card_search(query=query, viewer=AnonymousUser())
    assert warnings == []
    return {c.name for c in cards}


def test_words_are_runs_of_letters_and_digits() -> None:
    assert fulltext.words("Butt-Kicking_boots, +4!") == ["butt", "kicking", "boots", "4"]


@pytest.mark.django_db
def test_the_last_word_may_be_a_prefix(core_catalog: None) -> None:
    assert "Curse! Chicken on Your Head" in names("chick")
    assert "Curse! Chicken on Your Head" in names("name:chick")
    assert names("name:hicken") == set()  # words match from their start


@pytest.mark.django_db
def test_phrases_need_their_words_in_order_and_adjacent(core_catalog: None) -> None:
    assert names('name:"net troll"') == {"Net Troll"}
    assert names('name:"troll net"') == set()
    assert "Boots of Butt-Kicking" in names('name:"of butt-kicking"')


@pytest.mark.django_db
def test_name_and_text_are_searched_apart(core_catalog: None) -> None:
    in_text = names("o:undead")
    assert in_text and all("undead" in Card.objects.get(name=n).text.lower() for n in in_text)
    assert names("name:undead") != in_text


@pytest.mark.django_db
def test_exact_name_is_exact(core_catalog: None) -> None:
    assert names('!"net troll"') == {"Net Troll"}
    assert names('!"Net Trol"') == set()


@pytest.mark.django_db
def test_values_without_words_fall_back_to_substrings(core_catalog: None) -> None:
    plus = names('o:"+"')
    assert plus and all("+" in Card.objects.get(name=n).text for n in plus)


@pytest.mark.django_db
def test_the_index_follows_renames_and_deletes(core_catalog: None) -> None:
    card = Card.objects.get(name="Net Troll")
    card.name = "Web Ogre"
    card.save()
    assert names("name:troll") & {"Net Troll", "Web Ogre"} == set()
    assert names("name:ogre") == {"Web Ogre"}
    card.delete()
    assert names("name:ogre") == set()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("column", "indexes"),
    [
        ("text", ["card_search_text_idx"]),
        ("name", ["card_search_name_idx"]),
        ("both", ["card_search_name_idx", "card_search_text_idx"]),
    ],
)
def test_word_search_uses_the_index(
    core_catalog: None, column: fulltext.Column, indexes: list[str]
) -> None:
    prefix = {"name": "name:", "text": "o:", "both": ""}[column]
    cards, _ = card_search(query=f"{prefix}undead", viewer=AnonymousUser())
    sql, params = cards.order_by().values("id").query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
            indexes = ["catalog_card_fts VIRTUAL TABLE"]
        else:
            # At 147 cards scanning is cheaper and the planner's choice among indexes a coin
            # toss: with the table ruled out and only these indexes left, the word search must
            # be answered from the GIN indexes of its stored words.
            keep_only_indexes(cursor, ["card_search_name_idx", "card_search_text_idx"])
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + sql, params)
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert all(index in plan for index in indexes), plan


@pytest.mark.django_db
def test_a_search_count_can_read_the_covering_index_alone(core_catalog: None) -> None:
    # No narrower index answers these: a negated kind and a number.
    cards, _ = card_search(query="-t:monster gold<=400", viewer=AnonymousUser())
    sql, params = cards.order_by().values("id").query.sql_with_params()
    count = f"SELECT count(*) FROM ({sql}) matches"
    with connection.cursor() as cursor:
        # At 147 cards the planner's choice among indexes is a coin toss, so the others are
        # dropped (in this test's transaction, rolled back after): the count must then be
        # answered from the covering index, without reading the cards.
        keep_only_indexes(cursor, ["card_cover_idx"])
        if connection.vendor == "postgresql":
            for plan_kind in ("seqscan", "bitmapscan"):
                cursor.execute(f"SET LOCAL enable_{plan_kind} = off")
            cursor.execute(f"EXPLAIN {count}", params)
            expected = "Index Only Scan using card_cover_idx"
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {count}", params)
            expected = "COVERING INDEX card_cover_idx"
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert expected in plan, plan


@pytest.mark.django_db
def test_a_phrase_does_not_run_from_the_name_into_the_text(core_catalog: None) -> None:
    # FTS5 matches a phrase within one column; PostgreSQL's two stored vectors do the same.
    card = Card.objects.get(name="Net Troll")
    first_text_word = fulltext.words(card.text)[0]
    assert names(f'"troll {first_text_word}"') == set()
    assert "Net Troll" in names('"net troll"')


def test_the_migration_stores_exactly_what_queries_read() -> None:
    migration = import_module("catalog.migrations.0011_card_search_vectors")
    assert set(migration.PG_COLUMNS) == {c for cs in fulltext.PG_COLUMNS.values() for c in cs}
    for column in ("name", "text"):
        stored = f"search_{column}"
        assert re.sub(r"\s+", " ", migration.PG_COLUMNS[stored]) == fulltext.pg_vector(column)


@pytest.mark.django_db
def test_a_lost_trigger_is_restored_and_the_index_rebuilt(core_catalog: None) -> None:
    if connection.vendor != "sqlite":
        assert fulltext.ensure_index(connection) is False  # the GIN indexes are all there
        return
    # What Django's SQLite schema editor does to triggers when it rebuilds a table.
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER catalog_card_fts_insert")
    Card.objects.filter(name="Net Troll").update(name="Net Troll")  # still indexed: update
    card = Card.objects.get(name="Net Troll")
    card.pk = None
    card.name, card.slug = "Net Troll Twin", "net-troll-twin"
    card.save()
    assert names("name:twin") == set()
    assert fulltext.ensure_index(connection) is True
    assert names("name:twin") == {"Net Troll Twin"}
    assert fulltext.ensure_index(connection) is False


@pytest.mark.django_db
def test_a_word_search_holds_inside_a_subquery(core_catalog: None) -> None:
    # The outer query's card table and the subquery's are two aliases of one table: the
    # match must be written on the subquery's own.
    cards, _ = card_search(query="name:undead", viewer=AnonymousUser())
    # No join to the cards outside: only the subquery's own alias can name them.
    tagged = set(CardTag.objects.filter(card__in=cards.values("pk")).values_list("card_id"))
    expected = set(
        CardTag.objects.filter(card__name__in=names("name:undead")).values_list("card_id")
    )
    assert expected  # an undead monster carries its tag
    assert tagged == expected
