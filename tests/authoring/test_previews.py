"""The live previews are counted (authoring/previews.py): issue 34 sent 150 editor previews
back to back and none was refused."""

import pytest
import yaml
from django.contrib.auth.models import User
from django.test import Client

from authoring.previews import PREVIEW_PER_MINUTE
from catalog.models import CardSet
from catalog.services import set_create
from tests.hostile import byte_alias_bomb


@pytest.fixture
def her_set(alice: User) -> CardSet:
    return set_create(owner=alice, code="alices-set", name="Alice's Set")


@pytest.mark.django_db
def test_the_editor_preview_is_refused_past_the_limit_with_retry_after(
    client: Client, alice: User, her_set: CardSet
) -> None:
    client.force_login(alice)
    url = f"/author/preview/{her_set.code}/"
    answers = [client.post(url, {}) for _ in range(PREVIEW_PER_MINUTE + 1)]
    assert [a.status_code for a in answers[:-1]] == [200] * PREVIEW_PER_MINUTE
    refused = answers[-1]
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    body = refused.json()
    assert body["ok"] is False
    assert body["errors"][0]["message"].startswith(
        f"Too many previews: at most {PREVIEW_PER_MINUTE} a minute from your account."
    )


@pytest.mark.django_db
def test_two_accounts_on_one_address_share_its_count(
    client: Client, alice: User, bob: User, her_set: CardSet
) -> None:
    bobs = set_create(owner=bob, code="bobs-set", name="Bob's Set")
    client.force_login(alice)
    for _ in range(PREVIEW_PER_MINUTE):
        assert client.post(f"/author/preview/{her_set.code}/", {}).status_code == 200
    client.force_login(bob)
    refused = client.post(f"/author/preview/{bobs.code}/", {})
    assert refused.status_code == 429
    assert "from your address" in refused.json()["errors"][0]["message"]


@pytest.mark.django_db
def test_a_byte_alias_bomb_in_the_yaml_is_named_not_expanded(
    client: Client, alice: User, her_set: CardSet
) -> None:
    # Issue 34: 15 KB of YAML standing for 1.5 GB of text grew a worker by 1.6 GB.
    client.force_login(alice)
    bomb = byte_alias_bomb(15_000, levels=5, width=10)
    answer = client.post(
        f"/author/preview/{her_set.code}/",
        {"name": "Probe", "kind": "monster", "deck": "door", "document_yaml": bomb},
    )
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] is False
    messages = [error["message"] for error in body["errors"]]
    assert any("bytes of text once its aliases" in message for message in messages), messages
    assert len(answer.content) < 20_000


@pytest.mark.django_db
@pytest.mark.parametrize(
    "document_yaml", ["? [1]\n: 2\n", "{[1]: 2}\n", "tags: [0x" + "f" * 4000 + "]\n"]
)
def test_keys_that_are_lists_and_numbers_in_hex_are_named_not_a_server_error(
    client: Client, alice: User, her_set: CardSet, document_yaml: str
) -> None:
    client.force_login(alice)
    answer = client.post(
        f"/author/preview/{her_set.code}/",
        {"name": "Probe", "kind": "monster", "deck": "door", "document_yaml": document_yaml},
    )
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] is False
    text = yaml.safe_dump(body["errors"])
    assert "not a list" in text or "4000 digits" in text, text
    assert "f" * 100 not in text  # the number is not echoed
