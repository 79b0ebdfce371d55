"""Issue 18's "done when", in a browser: alice proposes Generic Guy's Treasures (Super
Munchkin: Level 14, Treasures unknown in the fixture) with a photo of her card; carol, a
curator of the set, finds it in her queue, opens it and accepts it; the card page then shows
the new Treasures. On a desktop and on a 360 px phone (no horizontal overflow on any page)."""

import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from playwright.sync_api import Browser, FilePayload, Page, expect
from pytest_django.live_server_helper import LiveServer

from catalog.models import Card, CardSet
from contributions.models import Proposal, ProposalStatus
from tests.contributions.conftest import SUPER_SET, jpeg_with_gps
from tests.e2e.sizes import by_tier

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ALICE = ("alice", "alices-long-pass-phrase-1")
CAROL = ("carol", "carols-long-pass-phrase-2")
SIZES = {"desktop": (1280, 800), "phone": (360, 740)}
PROPOSE = "/sets/munchkin-super/cards/generic-guy/propose/"


@pytest.fixture
def site(live_server: LiveServer, settings: Any, tmp_path: Any) -> str:
    settings.MEDIA_ROOT = tmp_path
    call_command("load_catalog", str(SUPER_SET), stdout=io.StringIO())
    card_set = CardSet.objects.get(code="munchkin-super")
    card_set.curators = Group.objects.create(name="super-curators")
    card_set.save()
    User.objects.create_user(ALICE[0], password=ALICE[1])
    carol = User.objects.create_user(CAROL[0], password=CAROL[1])
    carol.groups.add(card_set.curators)
    return str(live_server.url)


def fits(page: Page) -> None:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"{page.url}: scrollWidth {scroll} > innerWidth {inner}"


def log_in(page: Page, site: str, who: tuple[str, str], then: str) -> None:
    page.goto(f"{site}/accounts/login/?next={then}")
    page.get_by_label("Username").fill(who[0])
    page.locator("#id_password").fill(who[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{then}")


@pytest.mark.parametrize("size", by_tier(SIZES))
def test_a_proposal_with_a_photo_is_accepted_by_a_curator(
    browser: Browser, site: str, size: str
) -> None:
    width, height = SIZES[size]
    guy = Card.objects.get(card_set__code="munchkin-super", name="Generic Guy")
    assert guy.document["treasures"] is None  # the fixture does not know them
    revision = guy.revision

    alice = browser.new_context(viewport={"width": width, "height": height}).new_page()
    alice.set_default_timeout(15_000)
    # The card page's link, for anyone signed out, leads through the sign-in page.
    alice.goto(f"{site}/sets/munchkin-super/generic-guy/")
    alice.get_by_role("link", name="Sign in to propose a correction").click()
    alice.get_by_label("Username").fill(ALICE[0])
    alice.locator("#id_password").fill(ALICE[1])
    alice.get_by_role("button", name="Log in").click()
    alice.wait_for_url(f"**{PROPOSE}")
    expect(alice.get_by_role("heading", level=1)).to_contain_text("Generic Guy")
    fits(alice)
    expect(alice.get_by_label("Level:", exact=True)).to_have_value("14")
    alice.get_by_label("Treasures:", exact=True).fill("4")
    alice.get_by_label("Evidence").fill("My own copy: the bottom corner says four.")
    alice.get_by_label("Photo of the physical card").set_input_files(
        files=FilePayload(name="guy.jpg", mimeType="image/jpeg", buffer=jpeg_with_gps())
    )
    expect(alice.get_by_test_id("preview-state")).to_have_text("The card parses.")
    alice.get_by_role("button", name="Send the proposal").click()
    expect(alice.get_by_role("heading", level=1)).to_have_text(
        re.compile(r"^Proposal #\d+: Generic Guy$")
    )
    expect(alice.get_by_test_id("proposal-status")).to_have_text("Waiting for review")
    expect(alice.get_by_test_id("proposed-values")).to_contain_text("Treasures")
    expect(alice.get_by_test_id("photo-link")).to_be_visible()
    fits(alice)
    proposal = Proposal.objects.get()
    assert proposal.document["treasures"] == 4 and proposal.photo

    carol = browser.new_context(viewport={"width": width, "height": height}).new_page()
    carol.set_default_timeout(15_000)
    log_in(carol, site, CAROL, "/proposals/review/")
    fits(carol)
    carol.get_by_role("link", name=f"#{proposal.pk} Generic Guy").click()
    expect(carol.get_by_test_id("evidence")).to_contain_text("bottom corner says four")
    fits(carol)
    carol.get_by_role("button", name=f"Accept as revision {revision + 1}").click()
    expect(carol.get_by_test_id("proposal-status")).to_have_text("Accepted")
    expect(carol.get_by_test_id("review-outcome")).to_contain_text(f"revision {revision + 1}")

    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.ACCEPTED
    guy.refresh_from_db()
    assert guy.document["treasures"] == 4 and guy.revision == revision + 1
    carol.goto(f"{site}/sets/munchkin-super/generic-guy/")
    stats = carol.get_by_test_id("stats")
    treasures = stats.locator("div").filter(has=carol.locator("dt", has_text="Treasures"))
    expect(treasures.locator("dd")).to_have_text("4")
    fits(carol)
    # Alice follows it from her profile.
    alice.goto(f"{site}/accounts/alice/")
    expect(alice.get_by_test_id("profile-proposals")).to_contain_text("Accepted")
    fits(alice)
