"""Card ids are sequential: `card_get` finds by an id alone only cards of sets listed for the
viewer; an unlisted set's card only with its set's code; another's private set's never."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from catalog.faces import face_key
from catalog.selectors import card_by_face, card_get
from tests.catalog.factories import card_in

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("visibility", ["unlisted", "private"])
def test_an_id_alone_finds_no_hidden_card_but_for_its_owner(
    alice: User, bob: User, visibility: str
) -> None:
    card = card_in(alice, visibility)
    for viewer in (AnonymousUser(), bob):
        assert card_get(card_id=card.pk, viewer=viewer) is None
        assert card_get(card_id=card.pk, viewer=viewer, set_code="alice-other") is None
    assert card_get(card_id=card.pk, viewer=alice) == card


def test_an_unlisted_card_is_found_with_its_sets_code(alice: User, bob: User) -> None:
    card = card_in(alice, "unlisted")
    for viewer in (AnonymousUser(), bob):
        assert card_get(card_id=card.pk, viewer=viewer, set_code=card.card_set.code) == card


def test_a_private_card_is_not_found_even_with_its_code(alice: User, bob: User) -> None:
    card = card_in(alice, "private")
    assert card_get(card_id=card.pk, viewer=bob, set_code=card.card_set.code) is None


def test_a_public_card_is_found_by_its_id(alice: User, bob: User) -> None:
    card = card_in(alice, "public")
    assert card_get(card_id=card.pk, viewer=AnonymousUser()) == card
    assert card_get(card_id=card.pk, viewer=bob, set_code="whatever") == card


def test_an_unlisted_card_is_found_by_its_face_only_with_its_current_key(
    alice: User, bob: User
) -> None:
    card = card_in(alice, "unlisted")
    assert card_by_face(card_id=card.pk, viewer=bob, face="0" * 16 + "-1") is None
    assert card_by_face(card_id=card.pk, viewer=bob, face=face_key(card)) == card
    assert card_by_face(card_id=card.pk, viewer=alice, face="stale") == card
