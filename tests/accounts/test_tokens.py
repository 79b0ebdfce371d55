"""API tokens: made on the tokens page, shown once, stored as a digest, revoked by their owner."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from accounts.authentication import ApiTokenAuthentication
from accounts.models import ApiToken, token_digest
from accounts.services import MAX_TOKENS_PER_USER, token_create, token_revoke

pytestmark = pytest.mark.django_db

TOKENS = "/accounts/tokens/"
API = "/api/cards/"


def create_via_page(client: Client, name: str = "laptop script") -> str:
    response = client.post(TOKENS, {"name": name})
    assert response.status_code == 200, response.content
    key = response.context["new_key"]
    assert isinstance(key, str) and key
    return key


def api_status(key: str) -> tuple[int, dict[str, object]]:
    response = APIClient().get(API, HTTP_AUTHORIZATION=f"Token {key}")
    return response.status_code, response.json()


def revoke_url(token: ApiToken) -> str:
    return f"/accounts/tokens/{token.pk}/revoke/"


def test_tokens_page_needs_login(client: Client) -> None:
    response = client.get(TOKENS)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={TOKENS}"
    assert client.post(TOKENS, {"name": "x"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_tokens_page_lists_the_users_tokens_only(alice_client: Client, bob: User) -> None:
    token_create(user=bob, name="bob's token")
    mine, _ = token_create(user=User.objects.get(username="alice"), name="alice's token")
    response = alice_client.get(TOKENS)
    assert response.status_code == 200
    assert [t.pk for t in response.context["tokens"]] == [mine.pk]
    content = response.content.decode()
    assert "alice&#x27;s token" in content
    assert f"{mine.hint}…" in content
    assert "never" in content  # last used
    assert "bob" not in content
    assert response.context["new_key"] is None


def test_create_shows_the_key_once_and_stores_only_its_digest(
    alice_client: Client, alice: User
) -> None:
    response = alice_client.post(TOKENS, {"name": "importer"})
    assert response.status_code == 200
    key = response.context["new_key"]
    content = response.content.decode()
    assert key in content
    assert "cannot be shown again" in content
    assert f"Authorization: Token {key}" in content
    assert "no-store" in response["Cache-Control"]

    token = ApiToken.objects.get(user=alice)
    assert token.name == "importer"
    assert token.digest == token_digest(key)
    assert key.startswith(token.hint) and len(token.hint) < len(key) // 2
    # The key is in no column of the table.
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {ApiToken._meta.db_table}")
        rows = cursor.fetchall()
    assert rows and all(key not in str(value) for row in rows for value in row)

    later = alice_client.get(TOKENS).content.decode()
    assert "importer" in later
    assert key not in later


def test_each_key_is_new(alice_client: Client) -> None:
    keys = {create_via_page(alice_client, f"t{i}") for i in range(3)}
    assert len(keys) == 3


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_token_needs_a_sensible_name(alice_client: Client, name: str) -> None:
    response = alice_client.post(TOKENS, {"name": name})
    assert response.status_code == 400
    assert response.context["form"].errors["name"]
    assert response.context["new_key"] is None
    assert not ApiToken.objects.exists()


def test_service_checks_the_name_too(alice: User) -> None:
    with pytest.raises(ValidationError):
        token_create(user=alice, name="  ")
    token, key = token_create(user=alice, name="  padded  ")
    assert token.name == "padded"
    assert token.digest == token_digest(key)


def test_key_authenticates_a_drf_request(alice: User) -> None:
    token, key = token_create(user=alice, name="script")
    request = Request(APIRequestFactory().get(API, HTTP_AUTHORIZATION=f"Token {key}"))
    result = ApiTokenAuthentication().authenticate(request)
    assert result is not None
    assert result[0] == alice
    assert result[1].pk == token.pk

    wrong = Request(APIRequestFactory().get(API, HTTP_AUTHORIZATION=f"Token {key}x"))
    with pytest.raises(AuthenticationFailed):
        ApiTokenAuthentication().authenticate(wrong)


def test_key_works_against_the_api_and_records_its_use(alice_client: Client, alice: User) -> None:
    key = create_via_page(alice_client)
    status, body = api_status(key)
    assert status == 200, body
    assert body["object"] == "list"
    token = ApiToken.objects.get(user=alice)
    assert token.last_used_at is not None
    assert timezone.now() - token.last_used_at < timedelta(minutes=1)


def test_a_wrong_key_gets_401_with_the_error_object(alice: User) -> None:
    _, key = token_create(user=alice, name="script")
    status, body = api_status(key[:-1] + ("A" if key[-1] != "A" else "B"))
    assert status == 401, body
    assert body["object"] == "error"
    assert body["status"] == 401


def test_revoke_deletes_the_token_and_its_key_stops_working(
    alice_client: Client, alice: User
) -> None:
    key = create_via_page(alice_client)
    assert api_status(key)[0] == 200
    token = ApiToken.objects.get(user=alice)

    assert alice_client.get(revoke_url(token)).status_code == 405  # POST only
    assert ApiToken.objects.filter(pk=token.pk).exists()

    response = alice_client.post(revoke_url(token))
    assert response.status_code == 302
    assert response["Location"] == TOKENS
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    status, body = api_status(key)
    assert status == 401
    assert body["object"] == "error"
    assert "revoked" in alice_client.get(TOKENS).content.decode()


def test_another_users_token_cannot_be_revoked(alice_client: Client, bob: User) -> None:
    token, key = token_create(user=bob, name="bob's")
    assert alice_client.post(revoke_url(token)).status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert api_status(key)[0] == 200


def test_revoking_an_unknown_token_is_404(alice_client: Client) -> None:
    assert alice_client.post("/accounts/tokens/999999/revoke/").status_code == 404


def test_service_revoke_checks_the_owner(alice: User, bob: User) -> None:
    from django.http import Http404

    token, _ = token_create(user=bob, name="bob's")
    with pytest.raises(Http404):
        token_revoke(user=alice, token_id=token.pk)
    token_revoke(user=bob, token_id=token.pk)
    assert not ApiToken.objects.exists()


def test_revoke_needs_login(client: Client, alice: User) -> None:
    token, _ = token_create(user=alice, name="x")
    response = client.post(revoke_url(token))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_the_21st_token_is_refused(alice_client: Client, alice: User) -> None:
    for i in range(MAX_TOKENS_PER_USER - 1):
        token_create(user=alice, name=f"t{i}")
    create_via_page(alice_client, "the twentieth")
    assert ApiToken.objects.filter(user=alice).count() == MAX_TOKENS_PER_USER

    page = alice_client.get(TOKENS).content.decode()
    assert f"You have {MAX_TOKENS_PER_USER} tokens" in page

    response = alice_client.post(TOKENS, {"name": "one too many"})
    assert response.status_code == 400
    assert response.context["new_key"] is None
    assert "the most an account may have" in response.content.decode()
    assert ApiToken.objects.filter(user=alice).count() == MAX_TOKENS_PER_USER
    assert not ApiToken.objects.filter(name="one too many").exists()
    with pytest.raises(ValidationError):
        token_create(user=alice, name="via the service")


def test_limit_is_per_user(alice: User, bob: User) -> None:
    for i in range(MAX_TOKENS_PER_USER):
        token_create(user=alice, name=f"t{i}")
    token_create(user=bob, name="bob still may")


def test_token_names_are_escaped(alice_client: Client) -> None:
    create_via_page(alice_client, "<script>alert(1)</script>")
    content = alice_client.get(TOKENS).content.decode()
    assert "<script>" not in content
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in content
    assert "style=" not in content


def test_admin_lists_tokens_but_cannot_add_or_change_them(client: Client, alice: User) -> None:
    token, key = token_create(user=alice, name="admin-visible")
    admin = User.objects.create_superuser("root", password="root-password-123")
    client.force_login(admin)
    changelist = client.get("/admin/accounts/apitoken/")
    assert changelist.status_code == 200
    content = changelist.content.decode()
    assert "admin-visible" in content
    assert token.hint in content
    assert client.get("/admin/accounts/apitoken/add/").status_code == 403
    detail = client.get(f"/admin/accounts/apitoken/{token.pk}/change/")
    assert detail.status_code == 200
    assert token.digest not in detail.content.decode()
    assert key not in detail.content.decode()
    client.post(f"/admin/accounts/apitoken/{token.pk}/change/", {"name": "renamed"})
    token.refresh_from_db()
    assert token.name == "admin-visible"
