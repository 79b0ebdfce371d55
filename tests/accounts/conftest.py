import pytest
from django.contrib.auth.models import User
from django.test import Client

PASSWORD = "correct-horse-battery-9"


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client
