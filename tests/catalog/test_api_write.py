"""The write API: sets and cards created, changed and deleted over HTTP, with ownership,
visibility, revisions, tokens and throttling."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import ApiToken, new_token_key, token_digest
from catalog.api.throttles import WriteThrottle
from catalog.models import Card, CardRevision, CardSet
from catalog.services import card_create, card_write, set_create
from tests.factories import monster_document
from validator.engine import parse_card

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    cache.clear()  # throttle histories live in the cache and would leak between tests
    yield
    cache.clear()


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("stella", is_staff=True)


@pytest.fixture
def users(alice: User, bob: User, staff: User) -> dict[str, User]:
    return {"alice": alice, "bob": bob, "staff": staff}


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def alice_set(alice: User, visibility: str) -> CardSet:
    card_set = set_create(owner=alice, code=f"alice-{visibility}", name="Alice's Set")
    CardSet.objects.filter(pk=card_set.pk).update(visibility=visibility)
    card_set.refresh_from_db()
    return card_set


def alice_card(alice: User, visibility: str) -> Card:
    card_set = alice_set(alice, visibility)
    return card_create(card_set=card_set, actor=alice, document=monster_document())


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body: dict[str, Any] = response.json()
    assert body["object"] == "error" and body["status"] == status, body
    assert body["details"] and body["errors"] and body["errors"][0]["message"], body
    if code is not None:
        assert body["code"] == code, body
    return body


# Who tries, on which visibility of alice's set, and what they get back (success: None).
ACCESS = [
    (None, "private", 401),
    ("alice", "private", None),
    ("alice", "public", None),
    ("bob", "private", 404),
    ("bob", "unlisted", 403),
    ("bob", "public", 403),
    ("staff", "private", 404),
    ("staff", "public", 403),
]
# A card is addressed by its id, and ids are sequential: an id alone reaches no unlisted set.
CARD_ACCESS = [
    (who, visibility, 404 if (who, visibility) == ("bob", "unlisted") else status)
    for who, visibility, status in ACCESS
]


# --------------------------------------------------------------------------------------------
# Sets
# --------------------------------------------------------------------------------------------


def test_creating_a_set_needs_a_user(alice: User) -> None:
    response = APIClient().post("/api/sets/", {"code": "mine", "name": "Mine"}, format="json")
    body = assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    assert body["errors"][0]["path"] == "detail"
    assert not CardSet.everything.filter(code="mine").exists()


def test_owner_creates_a_private_set(alice: User, bob: User) -> None:
    response = client_for(alice).post(
        "/api/sets/",
        {"code": "my-set", "name": "My Set", "description": "cards", "cards_in_box": 40},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    # The code is put in alice's scope: no code she asks for can meet another user's set.
    assert body["object"] == "set" and body["code"] == "alice-my-set" and body["name"] == "My Set"
    assert body["visibility"] == "private" and body["cards"] == 0 and body["cards_in_box"] == 40
    card_set = CardSet.objects.get(code="alice-my-set")
    assert card_set.owner == alice and not card_set.official
    assert client_for(bob).get("/api/sets/alice-my-set/").status_code == 404
    assert client_for(alice).get("/api/sets/alice-my-set/").status_code == 200


@pytest.mark.parametrize(
    ("body", "path", "fragment"),
    [
        ({"code": "Not A Slug", "name": "X"}, "code", "lower-case"),
        ({"code": "taken", "name": "X"}, "code", "taken"),
        ({"code": "fine", "name": "   "}, "name", "blank"),
        ({"code": "fine", "name": "X", "visibility": "secret"}, "visibility", "secret"),
        ({"code": "fine", "nmae": "X"}, "nmae", "did you mean 'name'"),
        ({"name": "X"}, "code", "required"),
    ],
)
def test_a_bad_set_names_its_field(
    alice: User, body: dict[str, Any], path: str, fragment: str
) -> None:
    set_create(owner=alice, code="taken", name="Taken")
    response = client_for(alice).post("/api/sets/", body, format="json")
    error = assert_error(response, 400)
    assert error["errors"][0]["path"] == path
    assert fragment in error["errors"][0]["message"]
    assert list(CardSet.everything.values_list("code", flat=True)) == ["alice-taken"]


@pytest.mark.parametrize(("who", "visibility", "status"), ACCESS)
def test_patch_a_set(
    users: dict[str, User], who: str | None, visibility: str, status: int | None
) -> None:
    card_set = alice_set(users["alice"], visibility)
    client = client_for(users[who] if who else None)
    response = client.patch(
        f"/api/sets/{card_set.code}/",
        {"name": "Renamed", "visibility": "unlisted"},
        format="json",
    )
    card_set.refresh_from_db()
    if status is None:
        assert response.status_code == 200, response.content
        assert response.json()["name"] == "Renamed" and response.json()["visibility"] == "unlisted"
        assert (card_set.name, card_set.visibility) == ("Renamed", "unlisted")
    else:
        assert_error(response, status)
        assert (card_set.name, card_set.visibility) == ("Alice's Set", visibility)


def test_patch_keeps_what_it_does_not_name(alice: User) -> None:
    card_set = alice_set(alice, "public")
    response = client_for(alice).patch(
        f"/api/sets/{card_set.code}/", {"description": "new words"}, format="json"
    )
    assert response.status_code == 200, response.content
    card_set.refresh_from_db()
    assert (card_set.name, card_set.visibility, card_set.description) == (
        "Alice's Set",
        "public",
        "new words",
    )


@pytest.mark.parametrize(("who", "visibility", "status"), ACCESS)
def test_delete_a_set(
    users: dict[str, User], who: str | None, visibility: str, status: int | None
) -> None:
    card = alice_card(users["alice"], visibility)
    code = card.card_set.code
    response = client_for(users[who] if who else None).delete(f"/api/sets/{code}/")
    alice = client_for(users["alice"])
    if status is None:
        assert response.status_code == 204 and not response.content
        assert CardSet.everything.get(code=code).deleted_at is not None  # soft: still there
        assert_error(alice.get(f"/api/sets/{code}/"), 404, "not_found")
        assert_error(alice.get(f"/api/cards/{card.pk}/"), 404, "not_found")
    else:
        assert_error(response, status)
        assert alice.get(f"/api/sets/{code}/").status_code == 200


def test_official_sets_are_not_deleted(staff: User) -> None:
    CardSet.objects.create(code="munchkin-core", name="Munchkin", official=True)
    response = client_for(staff).delete("/api/sets/munchkin-core/")
    assert_error(response, 403, "permission_denied")
    assert CardSet.objects.filter(code="munchkin-core").exists()


# --------------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "visibility", "status"), ACCESS)
def test_post_a_card(
    users: dict[str, User], who: str | None, visibility: str, status: int | None
) -> None:
    card_set = alice_set(users["alice"], visibility)
    response = client_for(users[who] if who else None).post(
        "/api/cards/",
        {"set": card_set.code, "effects": monster_document("New Ogre")},
        format="json",
    )
    if status is None:
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["object"] == "card" and body["name"] == "New Ogre"
        assert body["set"] == card_set.code and body["revision"] == 1 and body["level"] == 7
        assert body["effects"]["kind"] == "monster" and body["text"]
        card = Card.objects.get(pk=body["id"])
        assert card.card_set == card_set
        assert card.revisions.get().changed_by == users["alice"]
    else:
        assert_error(response, status)
        assert not Card.everything.exists()


@pytest.mark.parametrize(
    ("document", "path", "fragment"),
    [
        ({"kidn": "monster"}, "effects.kidn", "did you mean 'kind'?"),
        ({"bad_stuf": []}, "effects.bad_stuf", "did you mean 'bad_stuff'?"),
        ({"effects": [{"typ": "x"}]}, "effects.effects[0].typ", "did you mean 'type'?"),
        ({"level": "high"}, "effects.level", "integer"),
    ],
)
def test_a_bad_document_names_its_path(
    alice: User, document: dict[str, Any], path: str, fragment: str
) -> None:
    card_set = alice_set(alice, "private")
    effects = monster_document()
    if "kidn" in document:
        del effects["kind"]
    effects.update(document)
    response = client_for(alice).post(
        "/api/cards/", {"set": card_set.code, "effects": effects}, format="json"
    )
    body = assert_error(response, 400, "invalid")
    assert any(e["path"] == path and fragment in e["message"] for e in body["errors"]), body
    assert not Card.everything.exists()


def test_a_card_name_taken_in_the_set_is_400(alice: User) -> None:
    card = alice_card(alice, "private")
    response = client_for(alice).post(
        "/api/cards/", {"set": card.card_set.code, "effects": monster_document()}, format="json"
    )
    body = assert_error(response, 400)
    assert body["errors"][0]["path"] == "effects.name"
    assert Card.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"effects": {}}, "set"),
        ({"set": "x"}, "effects"),
        ({"set": "x", "effects": ["not", "a", "mapping"]}, "effects"),
        ({"set": "x", "effects": {}, "revision": 1}, "revision"),
    ],
)
def test_a_bad_card_body_names_its_key(alice: User, body: dict[str, Any], path: str) -> None:
    response = client_for(alice).post("/api/cards/", body, format="json")
    error = assert_error(response, 400)
    assert error["errors"][0]["path"] == path


def test_a_card_for_a_missing_set_is_404(alice: User) -> None:
    response = client_for(alice).post(
        "/api/cards/", {"set": "no-such-set", "effects": monster_document()}, format="json"
    )
    assert_error(response, 404, "not_found")


@pytest.mark.parametrize(("who", "visibility", "status"), CARD_ACCESS)
def test_patch_a_card(
    users: dict[str, User], who: str | None, visibility: str, status: int | None
) -> None:
    card = alice_card(users["alice"], visibility)
    response = client_for(users[who] if who else None).patch(
        f"/api/cards/{card.pk}/",
        {"effects": monster_document(level=9), "revision": 1},
        format="json",
    )
    card.refresh_from_db()
    if status is None:
        assert response.status_code == 200, response.content
        assert response.json()["revision"] == 2 and response.json()["level"] == 9
        assert (card.revision, card.level) == (2, 9)
        assert list(card.revisions.values_list("number", "source")) == [(2, "api"), (1, "editor")]
    else:
        assert_error(response, status)
        assert (card.revision, card.level) == (1, 7)


def test_a_stale_patch_is_409_and_changes_nothing(alice: User) -> None:
    card = alice_card(alice, "private")
    client = client_for(alice)
    first = client.patch(
        f"/api/cards/{card.pk}/", {"effects": monster_document(level=9), "revision": 1}, "json"
    )
    assert first.status_code == 200, first.content
    stale = client.patch(
        f"/api/cards/{card.pk}/", {"effects": monster_document(level=3), "revision": 1}, "json"
    )
    body = assert_error(stale, 409, "conflict")
    assert body["errors"][0]["path"] == "revision"
    assert "revision 2" in body["errors"][0]["message"]
    card.refresh_from_db()
    assert (card.revision, card.level) == (2, 9)
    assert CardRevision.objects.filter(card=card).count() == 2
    assert client.get(f"/api/cards/{card.pk}/").json()["level"] == 9


def test_patch_needs_the_revision(alice: User) -> None:
    card = alice_card(alice, "private")
    response = client_for(alice).patch(
        f"/api/cards/{card.pk}/", {"effects": monster_document(level=9)}, format="json"
    )
    body = assert_error(response, 400)
    assert body["errors"][0]["path"] == "revision"
    card.refresh_from_db()
    assert card.level == 7


def test_a_bad_patch_document_names_its_path(alice: User) -> None:
    card = alice_card(alice, "private")
    response = client_for(alice).patch(
        f"/api/cards/{card.pk}/",
        {"effects": monster_document(levle=9), "revision": 1},
        format="json",
    )
    body = assert_error(response, 400, "invalid")
    assert body["errors"][0]["path"] == "effects.levle"
    assert "did you mean 'level'?" in body["errors"][0]["message"]
    card.refresh_from_db()
    assert card.revision == 1


@pytest.mark.parametrize(("who", "status"), [("staff", None), ("bob", 403), (None, 401)])
def test_official_cards_are_edited_by_staff(
    users: dict[str, User], who: str | None, status: int | None
) -> None:
    official = CardSet.objects.create(code="munchkin-core", name="Munchkin", official=True)
    card = card_write(
        card_set=official, typed=parse_card(monster_document()), actor=None, source="test"
    )
    response = client_for(users[who] if who else None).patch(
        f"/api/cards/{card.pk}/",
        {"effects": monster_document(level=12), "revision": 1},
        format="json",
    )
    card.refresh_from_db()
    if status is None:
        assert response.status_code == 200, response.content
        assert card.level == 12
    else:
        assert_error(response, status)
        assert card.level == 7


@pytest.mark.parametrize(("who", "visibility", "status"), CARD_ACCESS)
def test_delete_a_card(
    users: dict[str, User], who: str | None, visibility: str, status: int | None
) -> None:
    card = alice_card(users["alice"], visibility)
    response = client_for(users[who] if who else None).delete(f"/api/cards/{card.pk}/")
    alice = client_for(users["alice"])
    if status is None:
        assert response.status_code == 204 and not response.content
        assert Card.everything.get(pk=card.pk).deleted_at is not None
        assert_error(alice.get(f"/api/cards/{card.pk}/"), 404, "not_found")
    else:
        assert_error(response, status)
        assert alice.get(f"/api/cards/{card.pk}/").status_code == 200


def test_a_missing_card_is_404_for_writes(alice: User) -> None:
    client = client_for(alice)
    assert_error(client.delete("/api/cards/999999/"), 404, "not_found")
    patch = client.patch(
        "/api/cards/999999/", {"effects": monster_document(), "revision": 1}, format="json"
    )
    assert_error(patch, 404, "not_found")


# --------------------------------------------------------------------------------------------
# Tokens and throttling
# --------------------------------------------------------------------------------------------


def test_a_token_can_write(alice: User) -> None:
    key = new_token_key()
    ApiToken.objects.create(user=alice, name="t", digest=token_digest(key), hint=key[:8])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.post("/api/sets/", {"code": "by-token", "name": "By Token"}, format="json")
    assert response.status_code == 201, response.content
    assert CardSet.objects.get(code="alice-by-token").owner == alice

    client.credentials(HTTP_AUTHORIZATION=f"Token {key}x")
    refused = client.post("/api/sets/", {"code": "by-bad", "name": "Bad"}, format="json")
    assert_error(refused, 401, "authentication_failed")
    assert not CardSet.everything.filter(code__endswith="by-bad").exists()


def test_writes_are_throttled_and_reads_are_not(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"writes": "2/min"})
    client = client_for(alice)
    for code in ("one", "two"):
        response = client.post("/api/sets/", {"code": code, "name": code}, format="json")
        assert response.status_code == 201, response.content
        assert client.get("/api/sets/").status_code == 200
    third = client.post("/api/sets/", {"code": "three", "name": "three"}, format="json")
    body = assert_error(third, 429, "throttled")
    assert int(third["Retry-After"]) > 0 and "throttled" in body["details"]
    assert not CardSet.everything.filter(code="alice-three").exists()
    for _ in range(3):
        assert client.get("/api/sets/alice-one/").status_code == 200


def test_the_write_rate_falls_back_when_the_settings_lack_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"writes": "5/day"})
    assert WriteThrottle().rate == "5/day"
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {})
    assert WriteThrottle().rate == "1200/hour"


# --------------------------------------------------------------------------------------------
# author: in search
# --------------------------------------------------------------------------------------------


def test_author_search_respects_visibility(alice: User, bob: User) -> None:
    public = set_create(owner=alice, code="alice-open", name="Open", visibility="public")
    private = set_create(owner=alice, code="alice-secret", name="Secret", visibility="private")
    card_create(card_set=public, actor=alice, document=monster_document("Open Ogre"))
    card_create(card_set=private, actor=alice, document=monster_document("Secret Ogre"))
    bob_set = set_create(owner=bob, code="bob-open", name="Bob's", visibility="public")
    card_create(card_set=bob_set, actor=bob, document=monster_document("Bob Ogre"))

    def found(client: APIClient, query: str) -> list[str]:
        response = client.get("/api/cards/", {"q": query})
        assert response.status_code == 200, response.content
        assert response.json()["warnings"] == []
        return [card["name"] for card in response.json()["data"]]

    assert found(APIClient(), "author:alice") == ["Open Ogre"]
    assert found(client_for(bob), "author:alice") == ["Open Ogre"]
    assert found(client_for(bob), "author:ALICE Secret") == []
    assert found(client_for(alice), "author:alice") == ["Open Ogre", "Secret Ogre"]
    assert found(client_for(alice), "author:bob") == ["Bob Ogre"]
    assert found(APIClient(), "author:nobody") == []


# --------------------------------------------------------------------------------------------
# The schema shows the writes
# --------------------------------------------------------------------------------------------


def test_the_schema_documents_the_writes() -> None:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert {"get", "post"} <= set(paths["/api/sets/"])
    assert {"get", "patch", "delete"} <= set(paths["/api/sets/{code}/"])
    assert {"get", "post"} <= set(paths["/api/cards/"])
    assert {"get", "patch", "delete"} <= set(paths["/api/cards/{card_id}/"])
    assert "post" in paths["/api/validate/"] and "post" in paths["/api/scenarios/run/"]
    schemas = response.json()["components"]["schemas"]
    assert set(schemas["CardUpdateInput"]["required"]) == {"effects", "revision"}
    assert "409" in paths["/api/cards/{card_id}/"]["patch"]["responses"]
