"""A card's own scenarios: stored, run on save and on demand, shown on the card's pages."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from authoring.models import CardScenario
from authoring.scenarios import (
    ScenarioNameError,
    card_scenario_library,
    card_scenarios,
    scenario_create,
    scenario_delete,
    scenario_update,
    scenarios_run,
    scenarios_run_after_save,
)
from catalog.changes import CatalogChange
from catalog.models import Card
from catalog.services import card_create, card_update, set_create
from tests.conftest import CORE_SET
from tests.factories import monster_document
from validator.engine import CardDocumentError

WINS = """\
name: Aric beats the Test Ogre
players:
  - name: Aric
    level: 5
dice: [6]
combat:
  fighter: Aric
  monsters: [Test Ogre]
steps:
  - {resolve: true}
expect:
  outcome: won
  levels: {Aric: 6}
"""

WRONG = WINS.replace("levels: {Aric: 6}", "levels: {Aric: 9}")

MISSPELT = """\
name: A typo
playrs:
  - name: Aric
"""


@pytest.fixture
def core_catalog(db: None) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())


def make_card(owner: User, visibility: str = "public", level: int = 3) -> Card:
    card_set = set_create(owner=owner, code="my-set", name="My Set", visibility=visibility)
    return card_create(card_set=card_set, actor=owner, document=monster_document(level=level))


@pytest.fixture
def card(core_catalog: None, alice: User) -> Card:
    """Alice's Level 3 Test Ogre, in her public set."""
    return make_card(alice)


def page_url(card: Card, name: str = "scenarios", **kwargs: Any) -> str:
    return reverse(
        f"authoring:{name}", kwargs={"code": card.card_set.code, "slug": card.slug, **kwargs}
    )


# --------------------------------------------------------------------------------------------
# The services
# --------------------------------------------------------------------------------------------


def test_a_passing_scenario_is_run_and_stored(card: Card, alice: User) -> None:
    scenario = scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    scenario.refresh_from_db()
    assert scenario.last_status == "pass", scenario.last_messages
    assert scenario.last_messages == []
    assert scenario.last_values["outcome"] == "won"
    assert scenario.last_values["fighter_strength"] == 5
    assert scenario.last_values["monster_strength"] == 3
    assert scenario.last_values["levels"] == {"Aric": 6}
    assert scenario.last_run_at is not None
    assert scenario.last_card_revision == card.revision == 1
    assert scenario.created_by == alice
    assert not scenario.is_stale


def test_a_wrong_expectation_fails_with_the_computed_value(card: Card, alice: User) -> None:
    scenario = scenario_create(card=card, actor=alice, name="Wrong", text=WRONG)
    scenario.refresh_from_db()
    assert scenario.last_status == "fail"
    assert scenario.last_messages == ["levels.Aric: expected 9, got 6"]
    assert scenario.last_values["levels"] == {"Aric": 6}


def test_a_misspelt_key_is_refused_with_its_path_and_line(card: Card, alice: User) -> None:
    with pytest.raises(CardDocumentError) as caught:
        scenario_create(card=card, actor=alice, name="Typo", text=MISSPELT)
    errors = {(e.path, e.line): e.message for e in caught.value.errors}
    assert "did you mean 'players'" in errors[("playrs", 2)]
    assert not CardScenario.objects.exists()


def test_a_yaml_syntax_error_is_refused_with_its_line(card: Card, alice: User) -> None:
    with pytest.raises(CardDocumentError) as caught:
        scenario_create(card=card, actor=alice, name="Broken", text="name: x\nplayers: [\n")
    assert caught.value.errors[0].message.startswith("YAML syntax")
    assert caught.value.errors[0].line is not None
    assert not CardScenario.objects.exists()


def test_a_refused_update_keeps_the_stored_scenario(card: Card, alice: User) -> None:
    scenario = scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    with pytest.raises(CardDocumentError):
        scenario_update(scenario=scenario, actor=alice, name="Renamed", text=MISSPELT)
    scenario.refresh_from_db()
    assert (scenario.name, scenario.text, scenario.last_status) == ("Beats it", WINS, "pass")


def test_an_update_runs_the_scenario_again(card: Card, alice: User) -> None:
    scenario = scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    scenario_update(scenario=scenario, actor=alice, name="Beats it, badly", text=WRONG)
    scenario.refresh_from_db()
    assert (scenario.name, scenario.last_status) == ("Beats it, badly", "fail")


def test_names_are_unique_per_card(card: Card, alice: User) -> None:
    scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    with pytest.raises(ScenarioNameError):
        scenario_create(card=card, actor=alice, name="beats IT", text=WRONG)
    with pytest.raises(ScenarioNameError):
        scenario_create(card=card, actor=alice, name="   ", text=WRONG)
    assert CardScenario.objects.count() == 1


def test_the_yaml_name_may_be_left_out(card: Card, alice: User) -> None:
    text = WINS.replace("name: Aric beats the Test Ogre\n", "")
    scenario = scenario_create(card=card, actor=alice, name="No name key", text=text)
    assert scenario.last_status == "pass", scenario.last_messages


def test_saving_the_card_runs_its_scenarios_again(
    card: Card, alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    scenario = scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    assert scenario.last_status == "pass"

    # Until the save commits, the scenario has not run against it.
    with django_capture_on_commit_callbacks() as pending:
        stronger = card_update(
            card=card, actor=alice, document=monster_document(level=7), base_revision=card.revision
        )
        scenario.refresh_from_db()
        assert scenario.is_stale
    for callback in pending:
        callback()
    scenario.refresh_from_db()
    assert scenario.last_status == "fail"
    assert scenario.last_messages[0] == "outcome: expected won, got escaped"
    assert scenario.last_values["monster_strength"] == 7
    assert scenario.last_card_revision == 2
    assert not scenario.is_stale

    with django_capture_on_commit_callbacks(execute=True):
        card_update(card=stronger, actor=alice, document=monster_document(level=2), base_revision=2)
    scenario.refresh_from_db()
    assert (scenario.last_status, scenario.last_card_revision) == ("pass", 3)


def test_a_save_of_a_card_without_scenarios_costs_the_hook_one_query(
    card: Card, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(1):
        scenarios_run_after_save(CatalogChange.saved([card.pk]))


def test_named_sets_get_the_cards_own_set_too(card: Card, alice: User) -> None:
    text = """\
name: Two monsters
sets: [munchkin-core]
players:
  - {name: Aric, level: 5}
combat: {fighter: Aric, monsters: [Test Ogre, Lame Goblin]}
expect: {monster_strength: 4}
"""
    scenario = scenario_create(card=card, actor=alice, name="Two", text=text)
    assert scenario.last_status == "pass", scenario.last_messages


def test_no_sets_means_the_official_sets_and_the_cards_own(card: Card, alice: User) -> None:
    assert set(card_scenario_library(card=card).sets) == {"munchkin-core", "alice-my-set"}
    text = WINS.replace("monsters: [Test Ogre]", "monsters: [Test Ogre, Lame Goblin]").replace(
        "outcome: won", "monster_strength: 4"
    )
    scenario = scenario_create(card=card, actor=alice, name="Two", text=text)
    assert scenario.last_values["monster_strength"] == 4
    assert scenario.last_status == "fail"  # Level 5 against 4: won, but levels says 6 -> 7
    assert scenario.last_messages == ["levels.Aric: expected 6, got 7"]


def test_pack_files_and_other_authors_sets_are_refused(card: Card, alice: User, bob: User) -> None:
    set_create(owner=bob, code="bob-set", name="Bob's", visibility="public")
    with pytest.raises(CardDocumentError) as caught:
        scenario_create(card=card, actor=alice, name="Pack", text=WINS + "pack: /etc/passwd\n")
    assert caught.value.errors[0].path == "pack"
    assert caught.value.errors[0].line == 14
    with pytest.raises(CardDocumentError) as caught:
        scenario_create(
            card=card, actor=alice, name="Sets", text=WINS + "sets: [munchkin-core, bob-set]\n"
        )
    assert [(e.path, e.line) for e in caught.value.errors] == [("sets[1]", 14)]
    assert not CardScenario.objects.exists()


def test_a_scenario_that_cannot_run_is_stored_as_an_error(card: Card, alice: User) -> None:
    scenario = scenario_create(
        card=card, actor=alice, name="Ghost", text=WINS.replace("[Test Ogre]", "[Test Ogra]")
    )
    assert scenario.last_status == "error"
    assert "unknown card 'Test Ogra'" in scenario.last_messages[0]
    assert "did you mean 'Test Ogre'" in scenario.last_messages[0]
    assert scenario.last_messages[0].startswith("line 8: combat.monsters[0]:")

    # A stored text that no longer parses is an error with its path and line, not a crash.
    CardScenario.objects.filter(pk=scenario.pk).update(text=MISSPELT)
    [ran] = scenarios_run(card=card, actor=alice)
    assert ran.last_status == "error"
    assert "line 2: playrs: unknown key 'playrs'; did you mean 'players'?" in ran.last_messages
    assert ran.last_values == {}


def test_scenarios_run_runs_every_scenario(card: Card, alice: User) -> None:
    scenario_create(card=card, actor=alice, name="A", text=WINS)
    scenario_create(card=card, actor=alice, name="B", text=WRONG)
    CardScenario.objects.update(last_status="unrun", last_run_at=None)
    ran = scenarios_run(card=card, actor=alice)
    assert [(s.name, s.last_status) for s in ran] == [("A", "pass"), ("B", "fail")]
    assert [(s.name, s.last_status) for s in card_scenarios(card=card)] == [
        ("A", "pass"),
        ("B", "fail"),
    ]


def test_only_who_may_edit_the_set_writes_or_runs(card: Card, alice: User, bob: User) -> None:
    scenario = scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    for actor in (bob, AnonymousUser()):
        with pytest.raises(PermissionDenied):
            scenario_create(card=card, actor=actor, name="Mine", text=WINS)
        with pytest.raises(PermissionDenied):
            scenario_update(scenario=scenario, actor=actor, name="Mine", text=WRONG)
        with pytest.raises(PermissionDenied):
            scenario_delete(scenario=scenario, actor=actor)
        with pytest.raises(PermissionDenied):
            scenarios_run(card=card, actor=actor)
    scenario.refresh_from_db()
    assert (scenario.name, scenario.text) == ("Beats it", WINS)
    scenario_delete(scenario=scenario, actor=alice)
    assert not CardScenario.objects.exists()


# --------------------------------------------------------------------------------------------
# The pages
# --------------------------------------------------------------------------------------------


def test_the_page_shows_each_result(card: Card, alice: User, client: Client) -> None:
    scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    scenario_create(card=card, actor=alice, name="Expects too much", text=WRONG)
    response = client.get(page_url(card))  # anyone who can see the card sees the results
    assert response.status_code == 200
    html = response.content.decode()
    assert "Beats it" in html and "Expects too much" in html
    assert 'data-testid="scenario-status">pass<' in html
    assert 'data-testid="scenario-status">fail<' in html
    assert "levels.Aric: expected 9, got 6" in html
    assert "fighter strength" in html  # computed values
    assert "monsters: [Test Ogre]" in html  # the YAML
    assert 'style="' not in html and "<script>" not in html
    # Viewers get no forms.
    assert page_url(card, "scenarios_run") not in html
    assert page_url(card, "scenario_add") not in html


def test_the_owner_adds_edits_runs_and_deletes(card: Card, alice: User, client: Client) -> None:
    client.force_login(alice)
    html = client.get(page_url(card)).content.decode()
    assert page_url(card, "scenario_add") in html
    assert "no scenarios yet" in html

    response = client.post(page_url(card, "scenario_add"), {"name": "Typo", "text": MISSPELT})
    assert response.status_code == 400
    assert "line 2: playrs: unknown key" in response.content.decode()
    assert not CardScenario.objects.exists()

    response = client.post(page_url(card, "scenario_add"), {"name": "Beats it", "text": WINS})
    assert response.status_code == 302
    scenario = CardScenario.objects.get()
    assert scenario.last_status == "pass"
    html = client.get(page_url(card)).content.decode()
    assert "saved and run" in html
    assert page_url(card, "scenarios_run") in html
    edit = page_url(card, "scenario_edit", scenario_id=scenario.pk)
    assert edit in html

    assert client.get(edit).status_code == 200
    response = client.post(edit, {"name": "Beats it", "text": WRONG})
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.last_status == "fail"

    CardScenario.objects.update(last_status="unrun")
    assert client.post(page_url(card, "scenarios_run")).status_code == 302
    scenario.refresh_from_db()
    assert scenario.last_status == "fail"

    delete = page_url(card, "scenario_delete", scenario_id=scenario.pk)
    assert client.get(delete).status_code == 405
    assert client.post(delete).status_code == 302
    assert not CardScenario.objects.exists()


def test_another_user_cannot_change_or_run(
    card: Card, alice: User, bob: User, client: Client
) -> None:
    scenario = scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    CardScenario.objects.update(last_status="unrun")
    edit = page_url(card, "scenario_edit", scenario_id=scenario.pk)
    delete = page_url(card, "scenario_delete", scenario_id=scenario.pk)
    data = {"name": "Mine", "text": WRONG}

    # Not logged in: sent to log in.
    for url in (page_url(card, "scenario_add"), edit, delete, page_url(card, "scenarios_run")):
        response = client.post(url, data)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    client.force_login(bob)
    assert client.get(page_url(card)).status_code == 200  # the set is public
    assert client.get(page_url(card, "scenario_add")).status_code == 403
    assert client.post(page_url(card, "scenario_add"), data).status_code == 403
    assert client.get(edit).status_code == 403
    assert client.post(edit, data).status_code == 403
    assert client.post(delete).status_code == 403
    assert client.post(page_url(card, "scenarios_run")).status_code == 403

    scenario.refresh_from_db()
    assert (scenario.name, scenario.text, scenario.last_status) == ("Beats it", WINS, "unrun")
    assert CardScenario.objects.count() == 1


def test_a_private_cards_scenarios_are_not_found(
    core_catalog: None, alice: User, bob: User, client: Client
) -> None:
    card = make_card(alice, visibility="private")
    scenario = scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    client.force_login(bob)
    assert client.get(page_url(card)).status_code == 404
    assert client.post(page_url(card, "scenarios_run")).status_code == 404
    delete = page_url(card, "scenario_delete", scenario_id=scenario.pk)
    assert client.post(delete).status_code == 404
    assert CardScenario.objects.filter(pk=scenario.pk).exists()


def test_a_scenario_of_another_card_is_not_found_here(
    card: Card, alice: User, client: Client
) -> None:
    other = card_create(
        card_set=card.card_set, actor=alice, document=monster_document("Other Ogre")
    )
    scenario = scenario_create(card=other, actor=alice, name="Beats it", text=WINS)
    client.force_login(alice)
    assert (
        client.post(page_url(card, "scenario_delete", scenario_id=scenario.pk)).status_code == 404
    )
    assert client.get(page_url(card, "scenario_edit", scenario_id=scenario.pk)).status_code == 404
    assert CardScenario.objects.filter(pk=scenario.pk).exists()


def test_the_summary_partial(card: Card, alice: User) -> None:
    scenario_create(card=card, actor=alice, name="Expects too much", text=WRONG)
    html = render_to_string(
        "authoring/_scenario_summary.html",
        {"scenarios": card_scenarios(card=card), "card": card},
    )
    assert "Expects too much" in html
    assert ">fail<" in html
    assert "levels.Aric: expected 9, got 6" in html
    assert page_url(card) in html
    empty = render_to_string("authoring/_scenario_summary.html", {"scenarios": [], "card": card})
    assert "No scenarios yet" in empty


def test_scenarios_go_with_their_card(card: Card, alice: User) -> None:
    scenario_create(card=card, actor=alice, name="Beats it", text=WINS)
    assert CardScenario.objects.filter(card__card_set__code="alice-my-set").count() == 1
    Card.everything.filter(pk=card.pk).delete()
    assert not CardScenario.objects.exists()


@pytest.mark.parametrize(
    ("text", "shape"),
    [("? [1]\n: 2\n", "list"), ("{[1]: 2}\n", "list"), ("? {a: 1}\n: 2\n", "map")],
)
def test_a_scenario_with_a_key_that_is_a_list_or_a_map_is_named_on_its_line(
    card: Card, alice: User, client: Client, text: str, shape: str
) -> None:
    # Issue 34: a server error before.
    client.force_login(alice)
    response = client.post(page_url(card, "scenario_add"), {"name": "Keys", "text": text})
    assert response.status_code == 400
    assert f"a key must be a word or a number, not a {shape}" in response.content.decode()
    assert not CardScenario.objects.exists()
