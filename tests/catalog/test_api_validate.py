"""POST /api/validate/ and POST /api/scenarios/run/: the engine over HTTP, nothing stored."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from catalog.api.throttles import ValidateThrottle, WriteThrottle
from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from tests.factories import monster_document
from validator.models import CardCheck

pytestmark = pytest.mark.django_db

VALIDATE = "/api/validate/"
RUN = "/api/scenarios/run/"


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def logged_in(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def assert_error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body: dict[str, Any] = response.json()
    assert body["object"] == "error" and body["status"] == status, body
    assert body["details"] and body["errors"], body
    return body


# --------------------------------------------------------------------------------------------
# validate
# --------------------------------------------------------------------------------------------


def test_validate_reports_on_a_document_and_stores_nothing() -> None:
    response = APIClient().post(VALIDATE, monster_document(), format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body == {
        "object": "validation",
        "name": "Test Ogre",
        "kind": "monster",
        "encoding": "full",
        "status": "pass",
        "verified": True,
        "messages": [],
        "text": [
            "Level 7 monster; killing it is worth 2 Treasures and 1 level.",
            "Bad Stuff: none.",
        ],
        "errors": [],
    }
    assert not CardCheck.objects.exists() and not Card.everything.exists()


def test_validate_warns_about_a_partly_encoded_card() -> None:
    document = monster_document(
        encoding={"status": "partial", "clauses": ["+5 against Elves"]},
        notes="+5 against Elves.",
    )
    response = APIClient().post(VALIDATE, document, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "warn" and not body["verified"]
    assert any("+5 against Elves" in m for m in body["messages"]), body["messages"]


@pytest.mark.parametrize(
    ("document", "path", "fragment"),
    [
        ({**monster_document(), "levle": 3}, "levle", "did you mean 'level'?"),
        (monster_document(level="high"), "level", "integer"),
        (monster_document(effects=[{"typ": "x"}]), "effects[0].typ", "did you mean 'type'?"),
        ([monster_document()], "", "dictionary"),
    ],
)
def test_validate_names_the_paths_of_a_document_that_does_not_parse(
    document: Any, path: str, fragment: str
) -> None:
    body = assert_error(APIClient().post(VALIDATE, document, format="json"), 400)
    assert body["code"] == "invalid"
    assert any(e["path"] == path and fragment in e["message"] for e in body["errors"]), body
    assert not CardCheck.objects.exists()


def test_validate_takes_json_only() -> None:
    response = APIClient().post(VALIDATE, {"name": "x"})  # a form, not JSON
    assert_error(response, 415)
    malformed = APIClient().post(VALIDATE, "{not json", content_type="application/json")
    assert_error(malformed, 400)


def test_validate_for_a_set(alice: User, bob: User) -> None:
    set_create(owner=alice, code="alice-secret", name="Secret")
    url = f"{VALIDATE}?set=alice-secret"
    mine = logged_in(alice).post(url, monster_document(), format="json")
    assert mine.status_code == 200 and mine.json()["status"] == "pass", mine.content
    assert_error(logged_in(bob).post(url, monster_document(), format="json"), 404)
    assert_error(APIClient().post(f"{VALIDATE}?set=nope", monster_document(), format="json"), 404)


def test_validate_is_throttled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ValidateThrottle, "THROTTLE_RATES", {"validate": "2/min"})
    client = APIClient()
    for _ in range(2):
        assert client.post(VALIDATE, monster_document(), format="json").status_code == 200
    body = assert_error(client.post(VALIDATE, monster_document(), format="json"), 429)
    assert body["code"] == "throttled"


def test_validate_rate_defaults_when_the_settings_lack_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert "validate" not in WriteThrottle.THROTTLE_RATES  # the settings do not list it
    assert ValidateThrottle().rate == "600/hour"
    monkeypatch.setattr(ValidateThrottle, "THROTTLE_RATES", {"validate": "7/min"})
    assert ValidateThrottle().rate == "7/min"


# --------------------------------------------------------------------------------------------
# scenarios/run
# --------------------------------------------------------------------------------------------


def ogre_fight(**changes: Any) -> dict[str, Any]:
    scenario: dict[str, Any] = {
        "name": "Aric kills a weak ogre",
        "cards": [monster_document("Weak Ogre", level=1, treasures=1)],
        "players": [{"name": "Aric", "level": 2}],
        "combat": {"fighter": "Aric", "monsters": ["Weak Ogre"]},
        "steps": [{"resolve": True}],
        "expect": {"outcome": "won", "levels": {"Aric": 3}},
    }
    scenario.update(changes)
    return scenario


def test_a_scenario_runs_and_passes() -> None:
    response = APIClient().post(RUN, ogre_fight(), format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"object", "name", "passed", "values", "failures"}
    assert body["object"] == "scenario_result" and body["name"] == "Aric kills a weak ogre"
    assert body["passed"] is True and body["failures"] == []
    values = body["values"]
    assert values["outcome"] == "won" and values["levels"] == {"Aric": 3}
    assert (values["fighter_strength"], values["monster_strength"]) == (2, 1)
    assert not Card.everything.exists()


def test_a_failing_expectation_is_a_200_that_did_not_pass() -> None:
    scenario = ogre_fight(expect={"outcome": "escaped", "levels": {"Aric": 2}})
    response = APIClient().post(RUN, scenario, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["passed"] is False and len(body["failures"]) == 2
    assert any("outcome" in f for f in body["failures"]), body["failures"]
    assert body["values"]["outcome"] == "won"


@pytest.mark.parametrize(
    ("changes", "path", "fragment"),
    [
        ({"playerz": []}, "playerz", "did you mean 'players'?"),
        ({"steps": [{"resolv": True}]}, "steps[0]", "did you mean 'resolve'?"),
        ({"combat": {"fighter": "Aric", "monsters": ["Weak Ogr"]}}, "combat.monsters[0]", "Ogre"),
        ({"combat": {"fighter": "Arc", "monsters": ["Weak Ogre"]}}, "combat.fighter", "Aric"),
        ({"cards": [{"name": "Broken", "kind": "monster"}]}, "cards[0]", ""),
        ({"pack": "/etc/passwd"}, "pack", "not a pack"),
        ({"sets": ["no-such-set"]}, "sets[0]", "no-such-set"),
        ({"dice": [7]}, "dice[0]", ""),
    ],
)
def test_a_malformed_scenario_is_400_naming_the_path(
    changes: dict[str, Any], path: str, fragment: str
) -> None:
    body = assert_error(APIClient().post(RUN, ogre_fight(**changes), format="json"), 400)
    assert body["code"] == "invalid"
    assert any(e["path"] == path and fragment in e["message"] for e in body["errors"]), body


def test_a_scenario_that_is_not_an_object_is_400() -> None:
    body = assert_error(APIClient().post(RUN, [ogre_fight()], format="json"), 400)
    assert body["errors"][0]["path"] == ""


def test_scenarios_see_the_sets_the_requester_may_see(alice: User, bob: User) -> None:
    secret = set_create(owner=alice, code="alice-secret", name="Secret")
    card_create(card_set=secret, actor=alice, document=monster_document("Secret Ogre", level=1))
    scenario = ogre_fight(
        cards=[],
        sets=["alice-secret"],
        combat={"fighter": "Aric", "monsters": ["Secret Ogre"]},
    )
    mine = logged_in(alice).post(RUN, scenario, format="json")
    assert mine.status_code == 200, mine.content
    assert mine.json()["passed"] is True, mine.json()
    for client in (logged_in(bob), APIClient()):
        body = assert_error(client.post(RUN, scenario, format="json"), 400)
        assert body["errors"][0]["path"] == "sets[0]"
        assert "Secret Ogre" not in str(body)


def test_a_scenario_without_sets_knows_only_its_inline_cards(alice: User) -> None:
    public = set_create(owner=alice, code="alice-open", name="Open", visibility="public")
    card_create(card_set=public, actor=alice, document=monster_document("Open Ogre", level=1))
    assert CardSet.objects.filter(code="alice-open").exists()
    scenario = ogre_fight(combat={"fighter": "Aric", "monsters": ["Open Ogre"]})
    body = assert_error(APIClient().post(RUN, scenario, format="json"), 400)
    assert body["errors"][0]["path"] == "combat.monsters[0]"
    with_set = APIClient().post(RUN, {**scenario, "sets": ["alice-open"]}, format="json")
    assert with_set.status_code == 200 and with_set.json()["passed"], with_set.content


def test_scenario_runs_are_throttled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ValidateThrottle, "THROTTLE_RATES", {"validate": "1/min"})
    client = APIClient()
    assert client.post(RUN, ogre_fight(), format="json").status_code == 200
    assert_error(client.post(RUN, ogre_fight(), format="json"), 429)
