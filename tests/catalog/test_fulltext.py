"""Word search through the database's full-text index (FTS5 on SQLite, tsvector on PostgreSQL)."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from catalog.models import Card
from catalog.search import fulltext
from catalog.selectors import card_search


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
def test_word_search_uses_the_index(core_catalog: None) -> None:
    cards, _ = card_search(query="o:undead", viewer=AnonymousUser())
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            sql, params = cards.query.sql_with_params()
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
            expected = "catalog_card_fts VIRTUAL TABLE"
        else:
            # A table this small is cheaper to scan, so the planner is told not to; the
            # word-search part of the query must then be answered from its GIN index.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_indexscan = off")
            cursor.execute(
                "EXPLAIN SELECT id FROM catalog_card WHERE "
                f"{fulltext.pg_vector('text')} @@ to_tsquery('simple'::regconfig, %s)",
                ["undead:*"],
            )
            expected = "card_fts_text_idx"
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert expected in plan, plan


def test_the_migration_indexes_exactly_what_queries_ask_for() -> None:
    from importlib import import_module

    migration = import_module("catalog.migrations.0004_card_fulltext")
    for column, vector in migration.PG_VECTORS.items():
        assert re.sub(r"\s+", " ", vector) == fulltext.pg_vector(column)


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
