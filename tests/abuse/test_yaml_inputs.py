"""Hostile YAML on every form that reads YAML (issue 15, items 1, 2, 12 and 14).

Each reproduction is the document of the probe report, sent as the report sent it; each must be
answered within the budget with an error that names the limit, and must store nothing.
"""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from tests.abuse.conftest import Probed
from tests.hostile import alias_bomb, nested_yaml

# The slow tier (make test-slow, run by CI): each hostile request runs in a bounded child process.
pytestmark = pytest.mark.slow

ALIAS_LIMIT = "once its aliases (*name) are expanded"
DEPTH_LIMIT = "nests deeper than 40 levels"


@pytest.fixture
def own_set(probe: Callable[..., Probed], alice: User) -> str:
    return set_create(owner=alice, code="alice-set", name="Alice's set", visibility="private").code


def card_form(document_yaml: str) -> dict[str, str]:
    return {
        "name": "Probe",
        "kind": "monster",
        "deck": "door",
        "copies": "1",
        "document_yaml": document_yaml,
    }


def post_as_alice(probe: Callable[..., Probed], path: str, data: dict[str, str]) -> Probed:
    return probe({"method": "POST", "path": path, "data": data, "user": "alice"})


def test_the_alias_bomb_is_as_small_as_the_reported_one() -> None:
    assert len(alias_bomb()) <= 602


@pytest.mark.parametrize(
    ("document", "limit"), [(alias_bomb(), ALIAS_LIMIT), (nested_yaml(480), DEPTH_LIMIT)]
)
def test_editor_preview_refuses_within_budget(
    probe: Callable[..., Probed], own_set: str, document: str, limit: str
) -> None:
    answer = post_as_alice(probe, f"/author/preview/{own_set}/", card_form(document))
    assert answer.within_budget(), answer
    assert answer.status == 200  # the preview's answer is the list of errors
    messages = [e["message"] for e in answer.json()["errors"]]
    assert any(limit in m for m in messages), messages


@pytest.mark.parametrize("document", [alias_bomb(), nested_yaml(480)])
def test_card_save_refuses_within_budget(
    probe: Callable[..., Probed], own_set: str, document: str
) -> None:
    answer = post_as_alice(probe, f"/author/sets/{own_set}/add-card/", card_form(document))
    assert answer.within_budget(), answer
    assert answer.status == 400, answer
    assert ALIAS_LIMIT in answer.body or DEPTH_LIMIT in answer.body, answer
    assert not Card.objects.filter(card_set__code=own_set).exists()


@pytest.mark.parametrize("document", [alias_bomb(), nested_yaml(480)])
@pytest.mark.parametrize("into_own_set", [False, True])
def test_set_import_refuses_within_budget(
    probe: Callable[..., Probed], own_set: str, document: str, into_own_set: bool
) -> None:
    data = {"text": document, "visibility": "private"}
    if into_own_set:
        data["into"] = own_set
    answer = post_as_alice(probe, "/sets/import/", data)
    assert answer.within_budget(), answer
    assert answer.status in (200, 400), answer
    assert ALIAS_LIMIT in answer.body or DEPTH_LIMIT in answer.body, answer
    assert list(CardSet.objects.values_list("code", flat=True)) == [own_set]


def test_scenario_add_refuses_an_alias_bomb_within_budget(
    probe: Callable[..., Probed], own_set: str, alice: User
) -> None:
    card_create(
        actor=alice,
        card_set=CardSet.objects.get(code=own_set),
        document={
            "name": "Probe",
            "deck": "door",
            "kind": "monster",
            "level": 1,
            "treasures": 1,
            "encoding": {"status": "full"},
        },
    )
    path = f"/sets/{own_set}/probe/scenarios/add/"
    answer = post_as_alice(probe, path, {"name": "bomb", "text": alias_bomb()})
    assert answer.within_budget(), answer
    assert ALIAS_LIMIT in answer.body, answer


@pytest.mark.parametrize("entries", [150, 2000])
def test_many_bad_entries_are_placed_in_one_pass(
    probe: Callable[..., Probed], own_set: str, entries: int
) -> None:
    document = "bad_stuff:\n" + "".join(
        f"  - {{type: lose_levle, amount: {i}}}\n" for i in range(entries)
    )
    answer = post_as_alice(probe, f"/author/preview/{own_set}/", card_form(document))
    assert answer.within_budget(), answer
    messages = " ".join(e["message"] for e in answer.json()["errors"])
    # 150 entries: over the list budget; 2,000 (43 KB): over the field's length.
    assert "at most 20 items" in messages or "at most 20000 characters" in messages, messages


@pytest.mark.parametrize("level", ["1000000000000000000000000000000", str(2**63)])
def test_huge_level_in_the_editor_is_a_field_error(
    probe: Callable[..., Probed], own_set: str, level: str
) -> None:
    answer = post_as_alice(probe, f"/author/preview/{own_set}/", card_form(f"level: {level}\n"))
    assert answer.within_budget(), answer
    messages = " ".join(e["message"] for e in answer.json()["errors"])
    assert "less than or equal to 1000000" in messages, messages


def test_huge_cards_in_box_in_an_import_is_refused(
    probe: Callable[..., Probed], own_set: str
) -> None:
    document = "set: {code: huge, name: Huge, cards_in_box: 1000000000000000000000000000000}\n"
    document += "cards: []\n"
    answer = post_as_alice(probe, "/sets/import/", {"text": document, "visibility": "private"})
    assert answer.within_budget(), answer
    assert "cards_in_box" in answer.body and "1000000" in answer.body, answer
    assert not CardSet.objects.filter(code="huge").exists()
