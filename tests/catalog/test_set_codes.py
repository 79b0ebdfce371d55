"""Set codes live in their owner's scope (issue 15, item 10): whatever code a user asks for,
on the API, the set page or an import, the answer depends only on their own sets and on sets
anyone may open; another user's private set changes nothing in it."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.text import slugify
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from authoring.transfer import set_import
from catalog.models import Card, CardSet
from catalog.services import SetError, card_create, owned_code, set_create, set_delete
from tests.factories import monster_document

pytestmark = pytest.mark.django_db

# Codes bob might try: alice's own codes (private, unlisted, deleted) and a code in her name
# that was never used.
ASKED = ["alice-secret", "alice-link", "alice-gone", "secret", "alice-never-made"]


@pytest.fixture
def alices_sets(alice: User) -> None:
    secret = set_create(owner=alice, code="secret", name="Secret", visibility="private")
    card_create(card_set=secret, actor=alice, document=monster_document())
    set_create(owner=alice, code="link", name="Link", visibility="unlisted")
    set_delete(card_set=set_create(owner=alice, code="gone", name="Gone"), actor=alice)


def bobs_answers(bob: User) -> list[Any]:
    """What bob is told for each code of ASKED, through every way of making a set; his own
    sets are removed after each, so each answer starts from the same place."""
    api = APIClient()
    api.force_login(bob)
    page = Client()
    page.force_login(bob)
    answers: list[Any] = []
    for code in ASKED:
        made = api.post("/api/sets/", {"code": code, "name": "Mine"}, format="json")
        answers.append((made.status_code, made.json()))
        CardSet.everything.filter(owner=bob).delete()
        posted = page.post(
            "/author/sets/new/", {"code": code, "name": "Mine", "visibility": "private"}
        )
        answers.append((posted.status_code, posted.get("Location")))
        CardSet.everything.filter(owner=bob).delete()
        try:
            text = f"set: {{code: {code}, name: Mine}}\ncards: []\n"
            answers.append(set_import(owner=bob, text=text, source="mine.yaml").card_set.code)
        except SetError as exc:
            answers.append(str(exc))
        CardSet.everything.filter(owner=bob).delete()
    return answers


def test_another_users_sets_change_nothing_in_the_answer(
    alices_sets: None, alice: User, bob: User
) -> None:
    with_them = bobs_answers(bob)
    codes = [answer[1]["code"] for answer in with_them[::3]]
    assert codes == [f"bob-{code}" for code in ASKED]
    Card.everything.filter(card_set__owner=alice).delete()
    CardSet.everything.filter(owner=alice).delete()
    assert bobs_answers(bob) == with_them  # the same as if alice had no set at all


def test_a_code_is_taken_only_by_ones_own_sets_or_sets_anyone_may_open(
    alices_sets: None, alice: User
) -> None:
    for code in ("secret", "alice-secret", "gone"):  # her own, the deleted one included
        with pytest.raises(SetError, match="is taken"):
            set_create(owner=alice, code=code, name="Again")
    munchkin = User.objects.create_user("munchkin")
    CardSet.objects.create(code="munchkin-core", name="Munchkin", official=True)
    with pytest.raises(SetError, match="'munchkin-core' is taken"):
        set_create(owner=munchkin, code="core", name="Core")  # an official set: open to all


def test_a_code_too_long_with_its_scope_is_refused(alice: User) -> None:
    with pytest.raises(SetError, match="at most 60 characters, alice- included"):
        set_create(owner=alice, code="x" * 55, name="Long")
    assert set_create(owner=alice, code="x" * 54, name="Long").code == "alice-" + "x" * 54


slugs = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,40}", fullmatch=True).filter(
    lambda code: slugify(code) == code
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(code=slugs)
def test_no_code_asked_leaves_the_askers_scope(alice: User, bob: User, code: str) -> None:
    for user, scope in ((alice, "alice"), (bob, "bob")):
        try:
            owned = owned_code(owner=user, code=code)
        except SetError:
            continue  # too long: refused for anyone alike
        assert owned.split("-", 1)[0] == scope
