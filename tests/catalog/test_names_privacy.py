"""The fuzzy name lookup corrects typing slips only against the words of names the asker may
list (issue 34, item 5): a private card's words never change anyone else's answer."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from catalog.services import card_create, set_create, set_update
from tests.factories import monster_document

pytestmark = pytest.mark.django_db


def named(client: Client, fuzzy: str, **params: str) -> tuple[int, Any]:
    response = client.get("/api/cards/named/", {"fuzzy": fuzzy, **params})
    body = response.json()
    return response.status_code, body.get("name") or body.get("code")


@pytest.fixture
def public_card(bob: User) -> None:
    shown = set_create(owner=bob, code="sea", name="Sea", visibility="public")
    card_create(card_set=shown, actor=bob, document=monster_document("Zquid Wobbegone"))


@pytest.mark.parametrize(
    "typed",
    [
        "zq wobbegong",  # the reproduction: a private word left uncorrected
        "wobegong",  # a private word taken as the nearest: nothing the asker may see has it
    ],
)
def test_a_private_card_changes_no_one_elses_fuzzy_answer(
    public_card: None, alice: User, bob: User, typed: str
) -> None:
    anonymous, other = Client(), Client()
    other.force_login(bob)
    before = [named(anonymous, typed), named(other, typed)]
    assert before == [(200, "Zquid Wobbegone")] * 2

    hidden = set_create(owner=alice, code="hidden", name="Hidden", visibility="private")
    card_create(card_set=hidden, actor=alice, document=monster_document("Wobbegong Secret"))

    assert [named(anonymous, typed), named(other, typed)] == before
    # Its words are no secret to her: her own slips are corrected against them.
    owner = Client()
    owner.force_login(alice)
    assert named(owner, "wobbegong secrt") == (200, "Wobbegong Secret")
    assert named(other, "wobbegong secrt") == (404, "not_found")
    assert named(anonymous, "wobbegong secrt") == (404, "not_found")


def test_an_unlisted_set_named_by_its_code_lends_its_words(public_card: None, alice: User) -> None:
    unlisted = set_create(owner=alice, code="link", name="Link", visibility="unlisted")
    card_create(card_set=unlisted, actor=alice, document=monster_document("Wobbegong Secret"))
    anonymous = Client()
    assert named(anonymous, "wobbegong secrt") == (404, "not_found")
    assert named(anonymous, "wobbegong secrt", set="alice-link") == (200, "Wobbegong Secret")


def test_a_set_gone_private_takes_its_words_out_at_once(public_card: None, alice: User) -> None:
    mine = set_create(owner=alice, code="mine", name="Mine", visibility="public")
    card_create(card_set=mine, actor=alice, document=monster_document("Wobbegong Secret"))
    anonymous = Client()
    assert named(anonymous, "wobegong") == (200, "Wobbegong Secret")

    set_update(card_set=mine, actor=alice, visibility="private")

    assert named(anonymous, "wobegong") == (200, "Zquid Wobbegone")
