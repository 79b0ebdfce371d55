"""Issue 38: the rules engine's verdict up front on the card page, and a refused save that
keeps every field as typed."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from catalog.models import Card, CardSet, Visibility
from catalog.services import card_create, set_create
from tests.factories import monster_document
from validator.checks.reports import check_version
from validator.models import CardCheck


@pytest.fixture
def her_set(alice: User) -> CardSet:
    return set_create(owner=alice, code="alices-set", name="Alice's Set")


@pytest.fixture
def as_alice(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def field_value(page: str, name: str) -> str | None:
    """The value the served editor holds in its field `name` (input, select or textarea)."""
    tag = re.search(rf'<input [^>]*name="{name}"[^>]*>', page)
    if tag:
        value = re.search(r'value="([^"]*)"', tag.group(0))
        return value.group(1) if value else None
    select = re.search(rf'<select [^>]*name="{name}"[^>]*>(.*?)</select>', page, re.S)
    if select:
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(1))
        return chosen.group(1) if chosen else None
    area = re.search(rf'<textarea [^>]*name="{name}"[^>]*>\n?(.*?)</textarea>', page, re.S)
    return area.group(1) if area else None


def new_monster(**extra: Any) -> dict[str, Any]:
    data = {
        "name": "Test Gobbler",
        "kind": "monster",
        "deck": "door",
        "copies": "2",
        "level": "4",
        "treasures": "2",
        "levels_gained": "1",
        "document_yaml": "encoding:\n  status: full\n",
    }
    data.update(extra)
    return data


@pytest.mark.django_db
@pytest.mark.parametrize(
    "bad",
    [
        {"document_yaml": "encoding:\n  status: full\nefects: []\n"},  # an unknown key
        {"document_yaml": "encoding: [\n"},  # YAML that does not parse
        {"level": "-3"},  # a value the rules refuse
        {"copies": "0"},  # a value the form refuses
    ],
)
def test_a_refused_save_keeps_every_field_as_typed(
    as_alice: Client, her_set: CardSet, bad: dict[str, str]
) -> None:
    data = new_monster(**bad)
    response = as_alice.post(f"/author/sets/{her_set.code}/add-card/", data)
    assert response.status_code == 400
    page = response.content.decode()
    for name in ("name", "kind", "deck", "copies", "level", "treasures", "levels_gained"):
        assert field_value(page, name) == data[name], name
    assert field_value(page, "document_yaml") == data["document_yaml"].replace("\n", "\n")


def verdict_of(page: str) -> str:
    """The verdict line's words, tags left out."""
    found = re.search(r'<div class="verdict[^"]*" data-testid="verdict">(.*?)</div>', page, re.S)
    assert found, "no verdict on the page"
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


@pytest.mark.django_db
def test_the_verdict_is_up_front_after_a_save(
    as_alice: Client, her_set: CardSet, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    with django_capture_on_commit_callbacks(execute=False) as committed:
        response = as_alice.post(f"/author/sets/{her_set.code}/add-card/", new_monster())
    assert response.status_code == 302
    # Before the rules engine has checked it, the line says so, after the saved message.
    page = as_alice.get(response["Location"]).content.decode()
    saved = page.index("Saved &#x27;Test Gobbler&#x27; as revision 1.")
    assert saved < page.index('data-testid="verdict"')
    assert verdict_of(page).startswith("Rules engine: not checked yet.")
    assert "reload this page to see its verdict" in verdict_of(page)
    for callback in committed:
        callback()
    page = as_alice.get(response["Location"]).content.decode()
    check = CardCheck.objects.get()
    assert check.status == "pass" and check.verified and check.scenarios_run > 1
    line = verdict_of(page)
    assert line == (
        f"Rules engine: passed. Verified in {check.scenarios_run} scenarios made from its "
        "encoding: each played as it says. The rules engine's report"
    )
    # The face first, then the name and the verdict, then the folded report it links to.
    face = page.index('data-testid="face"')
    name = page.index('<h1 id="card-name">')
    verdict = page.index('data-testid="verdict"')
    assert face < name < verdict < page.index('data-testid="rules-engine"')
    assert '<a href="#validation" data-testid="verdict-details">' in page
    assert 'id="validation"' in page[page.index('data-testid="rules-engine"') :]


def stored_check(card: Card, status: str, messages: list[str], **extra: Any) -> CardCheck:
    values = {"check_version": check_version(), "verified": False, "scenarios_run": 12} | extra
    return CardCheck.objects.create(
        document_hash=card.document_hash,
        card_name=card.name,
        kind=card.kind,
        encoding=card.encoding,
        status=status,
        messages=messages,
        **values,
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("status", "messages", "extra", "expected"),
    [
        (
            "warn",
            ["warn: its Bad Stuff never applies in a fight it can lose"],
            {},
            "Rules engine: passed with warnings. Checked in 12 scenarios, but not verified "
            "yet. 1 warning: Its Bad Stuff never applies in a fight it can lose The rules "
            "engine's report",
        ),
        (
            "fail",
            ["fail: a level 3 fighter beat it at combat strength 2"],
            {},
            "Rules engine: failed. In 12 scenarios made from its encoding, the engine did not "
            "play it as the encoding says. A level 3 fighter beat it at combat strength 2 The "
            "rules engine's report",
        ),
        (
            "pass",
            [],
            {"check_version": "an-older-engine", "verified": True},
            "Rules engine: being re-checked. The engine has changed since this card was last "
            "checked, so it is being checked again (before the change it passed). The rules "
            "engine's report",
        ),
    ],
)
def test_each_verdict_in_words(
    client: Client,
    alice: User,
    her_set: CardSet,
    status: str,
    messages: list[str],
    extra: dict[str, Any],
    expected: str,
) -> None:
    her_set.visibility = Visibility.PUBLIC
    her_set.save()
    card = card_create(card_set=her_set, actor=alice, document=monster_document("Test Gobbler"))
    stored_check(card, status, messages, **extra)
    page = client.get(f"/sets/{her_set.code}/{card.slug}/").content.decode()
    assert verdict_of(page) == expected


@pytest.mark.django_db
def test_an_official_card_shows_its_verdict_too(client: Client, core_catalog: None) -> None:
    card = Card.objects.filter(card_set__official=True, kind="monster").first()
    assert card is not None
    stored_check(card, "pass", [], verified=True, scenarios_run=17)
    page = client.get(f"/sets/{card.card_set.code}/{card.slug}/").content.decode()
    assert verdict_of(page).startswith("Rules engine: passed. Verified in 17 scenarios")


@pytest.mark.django_db
def test_save_and_add_another_opens_a_blank_new_card(as_alice: Client, her_set: CardSet) -> None:
    url = f"/author/sets/{her_set.code}/add-card/"
    assert 'data-testid="save-and-add"' in as_alice.get(url).content.decode()
    response = as_alice.post(url, new_monster(then="another"))
    assert response.status_code == 302 and response["Location"] == url
    assert Card.objects.get(card_set=her_set).name == "Test Gobbler"
    page = as_alice.get(url).content.decode()
    said = "Saved &#x27;Test Gobbler&#x27; as revision 1. Now a new card of Alice&#x27;s Set."
    assert said in page
    assert field_value(page, "name") in (None, "")
    # Editing a card saves it only: it has no "add another".
    card = Card.objects.get(card_set=her_set)
    edit = as_alice.get(f"/author/sets/{her_set.code}/cards/{card.slug}/").content.decode()
    assert 'data-testid="save-and-add"' not in edit
