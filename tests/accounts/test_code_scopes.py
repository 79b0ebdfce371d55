"""Each user's scope of set codes: what it is, when it is given, and the migration that gave
one to every user and moved every custom set's code into its owner's scope."""

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import CodeScope
from accounts.services import code_scope, scope_candidate
from catalog.models import CardSet

BEFORE = [("accounts", "0001_api_tokens"), ("catalog", "0009_packs_and_prints_leave")]
AFTER = [("accounts", "0002_code_scopes")]


@pytest.mark.parametrize(
    ("username", "scope"),
    [
        ("alice", "alice"),
        ("Mary-Jane", "maryjane"),
        ("bob.smith@example.org", "bobsmithexampleorg"),
        ("Ünïcode", "unicode"),
        ("42", None),  # must start with a letter: digits are kept for numbers
        ("_-.", None),
        ("a" * 21, None),  # too long to leave room in a set code
    ],
)
def test_a_scope_is_the_name_in_lower_case_letters_and_digits(
    username: str, scope: str | None
) -> None:
    assert scope_candidate(username) == scope


@pytest.mark.django_db
def test_a_user_gets_a_scope_when_made_and_keeps_it() -> None:
    mary = User.objects.create_user("Mary-Jane")
    assert CodeScope.objects.get(user=mary).scope == "maryjane"
    # Another name giving the same scope: that user has their number, which no name gives.
    other = User.objects.create_user("maryjane")
    assert code_scope(user=other) == str(other.pk)
    mary.username = "someone-else"
    mary.save()
    assert code_scope(user=mary) == "maryjane"  # renaming moves no code
    numbered = User.objects.create_user("1234")
    assert code_scope(user=numbered) == str(numbered.pk)


@pytest.mark.django_db
def test_a_user_without_a_scope_is_given_one_on_first_need() -> None:
    carol = User.objects.create_user("carol")
    CodeScope.objects.filter(user=carol).delete()
    assert code_scope(user=carol) == "carol"
    assert code_scope(user=carol) == "carol" and CodeScope.objects.filter(user=carol).count() == 1


@pytest.fixture
def before_scopes(transactional_db: None) -> Iterator[MigrationExecutor]:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    executor.loader.build_graph()
    try:
        yield executor
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_migration_moves_every_custom_code_into_its_owners_scope(
    before_scopes: MigrationExecutor,
) -> None:
    apps = before_scopes.loader.project_state(BEFORE).apps
    old_user = apps.get_model("auth", "User")
    old_set = apps.get_model("catalog", "CardSet")
    alice = old_user.objects.create(username="alice")
    bob = old_user.objects.create(username="bob")
    numbered = old_user.objects.create(username="99")
    for code, owner, visibility in [
        ("secret", alice, "private"),
        ("bob-hidden", alice, "private"),  # in bob's scope: bob could have asked for it
        ("alice-fine", alice, "public"),  # already in alice's scope: left as it is
        ("alice-secret", bob, "public"),  # the code alice's "secret" would move to
        ("dragons", numbered, "unlisted"),
        ("munchkin-core", None, "public"),  # official: no owner, no scope
    ]:
        old_set.objects.create(
            code=code, name=code, owner=owner, visibility=visibility, official=owner is None
        )

    before_scopes.loader.build_graph()
    before_scopes.migrate(AFTER)

    codes = dict(CardSet.everything.values_list("name", "code"))
    assert codes == {
        "secret": "alice-secret-2",
        "bob-hidden": "alice-bob-hidden",
        "alice-fine": "alice-fine",
        "alice-secret": "bob-alice-secret",
        "dragons": f"{numbered.pk}-dragons",
        "munchkin-core": "munchkin-core",
    }
    assert dict(CodeScope.objects.values_list("user__username", "scope")) == {
        "alice": "alice",
        "bob": "bob",
        "99": str(numbered.pk),
    }
