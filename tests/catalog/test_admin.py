"""The admin works for staff, and shows cards read-only with their revisions."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from catalog.models import Card

pytestmark = pytest.mark.django_db


def test_staff_can_browse_sets_and_cards(client: Client, core_catalog: None) -> None:
    admin = User.objects.create_superuser("staff", "staff@example.com", "a-long-password-1")
    client.force_login(admin)
    assert client.get("/admin/catalog/cardset/").status_code == 200
    listing = client.get("/admin/catalog/card/", {"q": "Troll"})
    assert listing.status_code == 200 and "Net Troll" in listing.content.decode()
    troll = Card.objects.get(name="Net Troll")
    page = client.get(f"/admin/catalog/card/{troll.pk}/change/")
    assert page.status_code == 200 and "Net Troll" in page.content.decode()
    assert client.get("/admin/catalog/card/add/").status_code == 403


def test_visitors_are_sent_to_the_login_page(client: Client) -> None:
    response = client.get("/admin/catalog/card/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
