"""The site's middleware: answers to signed-in users stay out of shared caches."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken, new_token_key, token_digest
from catalog.models import Card
from packs.models import Pack
from packs.services import pack_build, pack_create
from tests.conftest import CORE_SET

pytestmark = pytest.mark.django_db


@pytest.fixture
def alices_pack(alice: User) -> Pack:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    return pack_create(actor=alice, built=pack_build(actor=alice, set_codes=["munchkin-core"]))


def test_owner_only_pages_and_api_answers_are_private(alice: User, alices_pack: Pack) -> None:
    client = Client()
    client.force_login(alice)
    for path in ("/packs/", f"/packs/{alices_pack.pk}/", f"/api/packs/{alices_pack.pk}/", "/"):
        response = client.get(path)
        assert response.status_code == 200, path
        # The API's reads also say `no-cache`: revalidate by ETag (ApiRevalidation).
        expected = "private, no-cache" if path.startswith("/api/") else "private"
        assert response["Cache-Control"] == expected, path
    key = new_token_key()
    ApiToken.objects.create(user=alice, name="t", digest=token_digest(key), hint=key[:8])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    by_token = api.get(f"/api/packs/{alices_pack.pk}/")
    assert by_token.status_code == 200 and by_token["Cache-Control"] == "private, no-cache"


def test_answers_that_chose_keep_their_choice_and_anonymous_ones_are_left_alone(
    alice: User, alices_pack: Pack
) -> None:
    client = Client()
    assert not client.get("/").has_header("Cache-Control")
    client.force_login(alice)
    card = Card.objects.get(name="Net Troll")
    face = client.get(f"/faces/{card.pk}/{card.document_hash[:16]}.png", follow=True)
    assert face.status_code == 200 and face["Cache-Control"].startswith("public")
    assert "no-store" in client.get("/accounts/tokens/")["Cache-Control"]
