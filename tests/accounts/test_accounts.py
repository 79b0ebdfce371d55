"""Sign up, log in, log out, and the profile page with the user's sets."""

import re
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import NoReverseMatch, reverse

from accounts.forms import RESERVED_USERNAMES
from catalog.models import CardSet
from tests.conftest import PASSWORD

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db

SIGNUP = "/accounts/signup/"
LOGIN = "/accounts/login/"
LOGOUT = "/accounts/logout/"


def signup(
    client: Client, username: str, password1: str = PASSWORD, password2: str = PASSWORD
) -> "_MonkeyPatchedWSGIResponse":
    return client.post(
        SIGNUP, {"username": username, "password1": password1, "password2": password2}
    )


def logged_in_id(client: Client) -> str | None:
    value = client.session.get(SESSION_KEY)
    return None if value is None else str(value)


def test_urls_are_in_the_accounts_namespace() -> None:
    assert reverse("accounts:signup") == SIGNUP
    assert reverse("accounts:login") == LOGIN
    assert reverse("accounts:logout") == LOGOUT
    assert reverse("accounts:tokens") == "/accounts/tokens/"
    assert reverse("accounts:token_revoke", args=[7]) == "/accounts/tokens/7/revoke/"
    assert reverse("catalog:profile", args=["a.b@c+d-e_f"]) == "/accounts/a.b@c+d-e_f/"


def test_signup_page_asks_for_username_and_password_only(client: Client) -> None:
    response = client.get(SIGNUP)
    assert response.status_code == 200
    form = response.context["form"]
    assert set(form.fields) == {"username", "password1", "password2"}
    assert b'name="csrfmiddlewaretoken"' in response.content


def test_signup_creates_the_user_logs_in_and_redirects_to_the_profile(client: Client) -> None:
    response = signup(client, "new.user@home+1")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/new.user@home+1/"
    user = User.objects.get(username="new.user@home+1")
    assert user.check_password(PASSWORD)
    assert logged_in_id(client) == str(user.pk)
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert page.context["is_owner"] is True
    assert b"Log out" in page.content


def test_signup_with_mismatched_passwords_creates_nothing(client: Client) -> None:
    response = signup(client, "carol", PASSWORD, PASSWORD + "x")
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert "didn\u2019t match" in response.content.decode()
    assert not User.objects.exists()
    assert logged_in_id(client) is None


@pytest.mark.parametrize("taken", ["alice", "ALICE"])
def test_signup_with_a_taken_username_creates_nothing(
    client: Client, alice: User, taken: str
) -> None:
    response = signup(client, taken)
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1
    assert logged_in_id(client) is None


def test_signup_refuses_a_weak_password(client: Client) -> None:
    response = signup(client, "carol", "password", "password")
    assert response.status_code == 200
    assert "This password is too common." in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize("name", [*sorted(RESERVED_USERNAMES), "Tokens", ".", ".."])
def test_signup_refuses_names_that_would_hide_a_page(client: Client, name: str) -> None:
    response = signup(client, name)
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not User.objects.exists()


def test_login_and_logout(client: Client, alice: User) -> None:
    page = client.get(LOGIN)
    assert page.status_code == 200
    assert b'name="password"' in page.content

    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert logged_in_id(client) == str(alice.pk)

    assert client.get(LOGOUT).status_code == 405  # logging out changes state: POST only
    assert logged_in_id(client) == str(alice.pk)

    response = client.post(LOGOUT)
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert logged_in_id(client) is None


def test_login_follows_next(client: Client, alice: User) -> None:
    response = client.post(
        LOGIN, {"username": "alice", "password": PASSWORD, "next": "/accounts/tokens/"}
    )
    assert response["Location"] == "/accounts/tokens/"


def test_login_with_a_wrong_password_fails(client: Client, alice: User) -> None:
    response = client.post(LOGIN, {"username": "alice", "password": "wrong-password"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert logged_in_id(client) is None


def test_header_links_for_anonymous_visitors(client: Client) -> None:
    content = client.get(LOGIN).content.decode()
    assert f'href="{LOGIN}"' in content
    assert f'href="{SIGNUP}"' in content
    assert "Log out" not in content


def test_header_links_for_a_logged_in_user(alice_client: Client) -> None:
    content = alice_client.get("/accounts/alice/").content.decode()
    assert 'href="/accounts/alice/"' in content
    assert 'href="/accounts/tokens/"' in content
    assert re.search(r'<form[^>]*method="post"[^>]*action="/accounts/logout/"', content)
    assert f'href="{LOGIN}"' not in content


def test_profile_of_an_unknown_user_is_404(client: Client) -> None:
    assert client.get("/accounts/nobody/").status_code == 404


def test_profile_of_an_inactive_user_is_404(client: Client, alice: User) -> None:
    alice.is_active = False
    alice.save()
    assert client.get("/accounts/alice/").status_code == 404


def test_profile_shows_name_and_date_joined(client: Client, alice: User) -> None:
    response = client.get("/accounts/alice/")
    assert response.status_code == 200
    content = response.content.decode()
    assert "<h1>alice</h1>" in content
    assert f"Member since {alice.date_joined.day} {alice.date_joined:%B %Y}" in content


@pytest.fixture
def alice_sets(alice: User) -> dict[str, CardSet]:
    return {
        v: CardSet.objects.create(
            code=f"alice-{v}", name=f"Alice {v.title()}", official=False, owner=alice, visibility=v
        )
        for v in ("private", "unlisted", "public")
    }


def set_codes(client: Client, username: str) -> set[str]:
    response = client.get(f"/accounts/{username}/")
    assert response.status_code == 200
    return {s.code for s in response.context["sets"]}


def test_profile_shows_every_own_set_to_the_owner(
    alice_client: Client, alice_sets: dict[str, CardSet]
) -> None:
    assert set_codes(alice_client, "alice") == {"alice-private", "alice-unlisted", "alice-public"}
    content = alice_client.get("/accounts/alice/").content.decode()
    assert 'href="/sets/alice-private/"' in content
    assert "Alice Private" in content
    assert "Private" in content and "Public" in content  # the visibility of each set


@pytest.mark.parametrize("viewer", ["anonymous", "bob"])
def test_profile_hides_private_sets_from_others(
    client: Client, bob: User, alice_sets: dict[str, CardSet], viewer: str
) -> None:
    if viewer == "bob":
        client.force_login(bob)
    assert set_codes(client, "alice") == {"alice-public"}
    content = client.get("/accounts/alice/").content.decode()
    assert "alice-private" not in content
    assert "Alice Private" not in content
    assert "alice-unlisted" not in content
    assert 'href="/sets/alice-public/"' in content


def test_profile_does_not_list_other_users_sets(
    alice_client: Client, bob: User, alice_sets: dict[str, CardSet]
) -> None:
    CardSet.objects.create(code="bobs", name="Bob's", official=False, owner=bob)
    assert "bobs" not in set_codes(alice_client, "alice")
    assert set_codes(alice_client, "bob") == {"bobs"}


def new_set_url() -> str | None:
    try:
        return reverse("authoring:set_create")
    except NoReverseMatch:
        return None


def test_owner_gets_links_to_new_set_and_tokens(alice_client: Client) -> None:
    response = alice_client.get("/accounts/alice/")
    assert response.context["new_set_url"] == new_set_url()
    content = response.content.decode()
    main = content[content.index("<main") :]
    assert 'href="/accounts/tokens/"' in main
    url = new_set_url()
    if url is None:
        assert "New set" not in main
    else:
        assert f'href="{url}">New set</a>' in main


def test_others_get_no_owner_links(client: Client, alice: User, bob: User) -> None:
    client.force_login(bob)
    response = client.get("/accounts/alice/")
    assert response.context["is_owner"] is False
    assert response.context["new_set_url"] is None
    content = response.content.decode()
    main = content[content.index("<main") :]
    assert "New set" not in main
    assert 'href="/accounts/tokens/"' not in main


def test_user_text_is_escaped(client: Client) -> None:
    evil = User.objects.create_user("x<b>", password=PASSWORD)
    CardSet.objects.create(
        code="evil",
        name="<script>alert(1)</script>",
        description='"><img src=x onerror=alert(1)>',
        official=False,
        owner=evil,
    )
    content = client.get(reverse("catalog:profile", args=["x<b>"])).content.decode()
    assert "<script>alert(1)</script>" not in content
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in content
    assert "<img src=x" not in content
    assert "x&lt;b&gt;" in content


@pytest.mark.parametrize("url", [SIGNUP, LOGIN, "/accounts/alice/"])
def test_pages_need_no_inline_script_or_style(client: Client, alice: User, url: str) -> None:
    response = client.get(url)
    assert "Content-Security-Policy" in response
    content = response.content.decode()
    # Scripts come from files (the header's menu: site.js), never inline.
    scripts = re.findall(r"<script\b[^>]*>", content)
    assert all(re.search(r'\bsrc="/static/', tag) for tag in scripts), scripts
    assert "<script>" not in content
    assert "style=" not in content


def test_signup_sends_a_logged_in_user_to_their_profile(alice_client: Client) -> None:
    response = alice_client.post(
        SIGNUP, {"username": "second", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/alice/"
    assert not User.objects.filter(username="second").exists()
