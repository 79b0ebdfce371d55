"""The permission matrix: anonymous, owner, another user and staff against every page and API
endpoint that writes (and the reads that visibility hides). Every cell is its own test, on
fresh objects, and asserts both the status and whether the write happened."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from authoring.editor import split_document
from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from tests.factories import monster_document

ROLES = ("anonymous", "owner", "other", "staff")
LOGIN = 302  # a page that needs a login sends the visitor to it


@dataclass
class World:
    alice: User  # owns the custom sets
    bob: User  # another user
    staff: User
    sets: dict[str, CardSet]  # private, unlisted, public, official
    cards: dict[str, Card]  # one per set


@pytest.fixture
def world(db: None) -> World:
    alice = User.objects.create_user("alice", password="pw")
    bob = User.objects.create_user("bob", password="pw")
    staff = User.objects.create_user("stella", password="pw", is_staff=True)
    sets = {
        v: set_create(owner=alice, code=f"{v}-set", name=f"{v} set", visibility=v)
        for v in ("private", "unlisted", "public")
    }
    sets["official"] = CardSet.objects.create(code="official-set", name="Official", official=True)
    cards = {}
    for key, card_set in sets.items():
        actor = staff if key == "official" else alice
        cards[key] = card_create(card_set=card_set, actor=actor, document=monster_document())
    return World(alice, bob, staff, sets, cards)


def client_for(role: str, world: World, api: bool = False) -> Client:
    client: Client = APIClient() if api else Client()
    user = {"owner": world.alice, "other": world.bob, "staff": world.staff}.get(role)
    if user is not None:
        client.force_login(user)
    return client


def editor_post(document: dict[str, Any], **extra: Any) -> dict[str, Any]:
    values, text = split_document(document)
    return {
        **{k: ("" if v is None else v) for k, v in values.items()},
        "document_yaml": text,
        **extra,
    }


# For a set that a role may see but not change: 403. For one it may not see: 404.
def expect_for(visibility: str, *, anonymous: int) -> dict[str, int]:
    hidden = 404 if visibility == "private" else 403
    official = visibility == "official"
    return {
        "anonymous": anonymous,
        "owner": 403 if official else 200,
        "other": 403 if official else hidden,
        "staff": 200 if official else hidden,
    }


@dataclass(frozen=True)
class Cell:
    name: str
    visibility: str
    role: str
    expected: int


Action = Callable[[Client, World, str], Any]


def _card(world: World, visibility: str) -> Card:
    return world.cards[visibility]


def _level(world: World, visibility: str) -> int | None:
    return Card.everything.get(pk=_card(world, visibility).pk).level


PAGE_ACTIONS: dict[str, tuple[Action, Callable[[World, str], bool]]] = {
    # name: (do it, did the write happen?)
    "set settings": (
        lambda c, w, v: c.post(
            f"/author/sets/{w.sets[v].code}/",
            {"name": "Renamed", "visibility": "public" if v == "official" else v},
        ),
        lambda w, v: CardSet.everything.get(pk=w.sets[v].pk).name == "Renamed",
    ),
    "set delete": (
        lambda c, w, v: c.post(f"/author/sets/{w.sets[v].code}/delete/"),
        lambda w, v: CardSet.everything.get(pk=w.sets[v].pk).deleted_at is not None,
    ),
    "card add": (
        lambda c, w, v: c.post(
            f"/author/sets/{w.sets[v].code}/add-card/", editor_post(monster_document("New One"))
        ),
        lambda w, v: Card.objects.filter(card_set=w.sets[v], name="New One").exists(),
    ),
    "card edit": (
        lambda c, w, v: c.post(
            f"/author/sets/{w.sets[v].code}/cards/{_card(w, v).slug}/",
            editor_post(monster_document(level=11), base_revision=1),
        ),
        lambda w, v: _level(w, v) == 11,
    ),
    "card delete": (
        lambda c, w, v: c.post(f"/author/sets/{w.sets[v].code}/cards/{_card(w, v).slug}/delete/"),
        lambda w, v: Card.everything.get(pk=_card(w, v).pk).deleted_at is not None,
    ),
    "card revert": (
        lambda c, w, v: c.post(
            f"/author/sets/{w.sets[v].code}/cards/{_card(w, v).slug}/revert/1/",
            {"base_revision": 1},
        ),
        lambda w, v: Card.everything.get(pk=_card(w, v).pk).revision == 2,
    ),
    "card preview": (
        lambda c, w, v: c.post(
            f"/author/preview/{w.sets[v].code}/", editor_post(monster_document())
        ),
        lambda w, v: False,  # stores nothing, whoever asks
    ),
}


SCENARIO = """\
name: Aric beats it
players:
  - name: Aric
    level: 9
dice: [6]
combat:
  fighter: Aric
  monsters: [Test Ogre@{code}]
steps:
  - {{resolve: true}}
expect:
  outcome: won
"""


def _scenario_url(world: World, visibility: str, rest: str) -> str:
    card = _card(world, visibility)
    return f"/sets/{world.sets[visibility].code}/{card.slug}/scenarios/{rest}"


def _stored_scenario(world: World, visibility: str) -> Any:
    from authoring.models import CardScenario

    return CardScenario.objects.filter(card=_card(world, visibility)).first()


PAGE_ACTIONS.update(
    {
        "scenario add": (
            lambda c, w, v: c.post(
                _scenario_url(w, v, "add/"),
                {"name": "Mine", "text": SCENARIO.format(code=w.sets[v].code)},
            ),
            lambda w, v: _stored_scenario(w, v) is not None,
        ),
        "scenarios run": (
            lambda c, w, v: c.post(_scenario_url(w, v, "run/")),
            lambda w, v: False,  # runs store results only; nothing is attached in this world
        ),
        "import into set": (
            lambda c, w, v: c.post(
                "/sets/import/",
                {
                    "text": "set: {code: x, name: X}\ncards:\n- "
                    + str(monster_document("Imported")).replace("'", '"'),
                    "into": w.sets[v].code,
                    "visibility": "private",
                },
            ),
            lambda w, v: Card.objects.filter(card_set=w.sets[v], name="Imported").exists(),
        ),
    }
)


def page_cells() -> list[Cell]:
    cells = []
    for name in PAGE_ACTIONS:
        for visibility in ("private", "public", "official"):
            if name == "set delete" and visibility == "official":
                expected = {"anonymous": LOGIN, "owner": 403, "other": 403, "staff": 403}
            elif name == "import into set":
                # Only your own custom sets are offered: anything else is an invalid choice.
                refused = 400
                own = visibility != "official"
                expected = {
                    "anonymous": LOGIN,
                    "owner": 200 if own else refused,
                    "other": refused,
                    "staff": refused,
                }
            else:
                expected = expect_for(visibility, anonymous=LOGIN)
            for role in ROLES:
                cells.append(Cell(name, visibility, role, expected[role]))
    return cells


SUCCESS = {200, 302}


@pytest.mark.parametrize("cell", page_cells(), ids=lambda c: f"{c.name}-{c.visibility}-{c.role}")
def test_pages_that_write(world: World, cell: Cell) -> None:
    action, happened = PAGE_ACTIONS[cell.name]
    response = action(client_for(cell.role, world), world, cell.visibility)
    if cell.expected == 200:
        assert response.status_code in SUCCESS, response.status_code
        if cell.name not in ("card preview", "scenarios run"):  # these store nothing here
            assert happened(world, cell.visibility)
    else:
        assert response.status_code == cell.expected
        if cell.expected == LOGIN:
            assert response["Location"].startswith("/accounts/login/")
        assert not happened(world, cell.visibility)


API_ACTIONS: dict[str, tuple[Action, Callable[[World, str], bool]]] = {
    "API set PATCH": (
        lambda c, w, v: c.patch(f"/api/sets/{w.sets[v].code}/", {"name": "Renamed"}, format="json"),
        lambda w, v: CardSet.everything.get(pk=w.sets[v].pk).name == "Renamed",
    ),
    "API set DELETE": (
        lambda c, w, v: c.delete(f"/api/sets/{w.sets[v].code}/"),
        lambda w, v: CardSet.everything.get(pk=w.sets[v].pk).deleted_at is not None,
    ),
    "API card POST": (
        lambda c, w, v: c.post(
            "/api/cards/",
            {"set": w.sets[v].code, "effects": monster_document("New One")},
            format="json",
        ),
        lambda w, v: Card.objects.filter(card_set=w.sets[v], name="New One").exists(),
    ),
    "API card PATCH": (
        lambda c, w, v: c.patch(
            f"/api/cards/{_card(w, v).pk}/",
            {"effects": monster_document(level=11), "revision": 1},
            format="json",
        ),
        lambda w, v: _level(w, v) == 11,
    ),
    "API card DELETE": (
        lambda c, w, v: c.delete(f"/api/cards/{_card(w, v).pk}/"),
        lambda w, v: Card.everything.get(pk=_card(w, v).pk).deleted_at is not None,
    ),
}


def api_cells() -> list[Cell]:
    cells = []
    for name in API_ACTIONS:
        for visibility in ("private", "public", "official"):
            expected = expect_for(visibility, anonymous=401)
            if name == "API set DELETE" and visibility == "official":
                expected = {"anonymous": 401, "owner": 403, "other": 403, "staff": 403}
            for role in ROLES:
                cells.append(Cell(name, visibility, role, expected[role]))
    return cells


@pytest.mark.parametrize("cell", api_cells(), ids=lambda c: f"{c.name}-{c.visibility}-{c.role}")
def test_api_endpoints_that_write(world: World, cell: Cell) -> None:
    action, happened = API_ACTIONS[cell.name]
    response = action(client_for(cell.role, world, api=True), world, cell.visibility)
    if cell.expected == 200:
        assert response.status_code in {200, 201, 204}, response.content
        assert happened(world, cell.visibility)
    else:
        assert response.status_code == cell.expected, response.content
        assert response.json()["object"] == "error"
        assert not happened(world, cell.visibility)


# A custom set's code starts with its owner's scope (their name here).
SCOPES = {"owner": "alice", "other": "bob", "staff": "stella"}


@pytest.mark.parametrize("role", ROLES)
def test_api_set_creation_needs_authentication(world: World, role: str) -> None:
    data = {"code": f"{role}-api", "name": "New"}
    response = client_for(role, world, api=True).post("/api/sets/", data, format="json")
    assert response.status_code == (401 if role == "anonymous" else 201)
    created = CardSet.objects.filter(code=f"{SCOPES.get(role)}-{role}-api")
    assert created.exists() is (role != "anonymous")


@pytest.mark.parametrize("role", ROLES)
def test_creating_a_set_needs_a_login_and_nothing_else(world: World, role: str) -> None:
    data = {"code": f"{role}-new", "name": "New", "visibility": "private"}
    response = client_for(role, world).post("/author/sets/new/", data)
    assert response.status_code == 302
    created = CardSet.objects.filter(code=f"{SCOPES.get(role)}-{role}-new").first()
    if role == "anonymous":
        assert response["Location"].startswith("/accounts/login/") and created is None
    else:
        assert created is not None and created.official is False


READS = {
    "set page": lambda w, v: f"/sets/{w.sets[v].code}/",
    "card page": lambda w, v: f"/sets/{w.sets[v].code}/{w.cards[v].slug}/",
    "card history": lambda w, v: f"/sets/{w.sets[v].code}/{w.cards[v].slug}/history/",
    "set YAML": lambda w, v: f"/sets/{w.sets[v].code}/export.yaml",
    "API set": lambda w, v: f"/api/sets/{w.sets[v].code}/",
    # An unlisted set's card is reached by its id with its set's code (its page gives both).
    "API card": lambda w, v: (
        f"/api/cards/{w.cards[v].pk}/" + (f"?set={w.sets[v].code}" if v == "unlisted" else "")
    ),
}


@pytest.mark.parametrize("read", READS)
@pytest.mark.parametrize("visibility", ["private", "unlisted", "public"])
@pytest.mark.parametrize("role", ROLES)
def test_private_sets_are_404_to_everyone_but_their_owner(
    world: World, read: str, visibility: str, role: str
) -> None:
    response = client_for(role, world).get(READS[read](world, visibility))
    hidden = visibility == "private" and role != "owner"
    assert response.status_code == (404 if hidden else 200)


@pytest.mark.parametrize("visibility", ["private", "unlisted", "public"])
@pytest.mark.parametrize("role", ROLES)
def test_a_card_id_alone_reaches_only_sets_listed_for_the_viewer(
    world: World, visibility: str, role: str
) -> None:
    """Card ids are sequential: stepping through them must not find an unlisted set."""
    response = client_for(role, world).get(f"/api/cards/{world.cards[visibility].pk}/")
    hidden = visibility != "public" and role != "owner"
    assert response.status_code == (404 if hidden else 200)


@pytest.mark.parametrize("role", ROLES)
def test_listings_and_search_show_unlisted_and_private_sets_only_to_the_owner(
    world: World, role: str
) -> None:
    client = client_for(role, world)
    home = client.get("/").content.decode()
    found = {c["set"] for c in client.get("/api/cards/", {"q": "name:ogre"}).json()["data"]}
    listed = {s["code"] for s in client.get("/api/sets/").json()["data"]}
    for visibility in ("private", "unlisted"):
        code = world.sets[visibility].code
        shown = role == "owner"
        assert (code in found) is shown and (code in listed) is shown
        assert (f"/sets/{code}/" in home) is shown
    public = world.sets["public"].code
    assert public in found and public in listed
    # An unlisted set is reachable through its code, like through its link.
    by_code = client.get("/api/cards/", {"q": f"set:{world.sets['unlisted'].code}"}).json()
    assert by_code["total"] == 1 and by_code["warnings"] == []
    by_code = client.get("/api/cards/", {"q": f"set:{world.sets['private'].code}"}).json()
    assert by_code["total"] == (1 if role == "owner" else 0)
