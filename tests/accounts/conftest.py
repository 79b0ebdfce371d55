import pytest
from django.contrib.auth.models import User
from django.test import Client


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client
