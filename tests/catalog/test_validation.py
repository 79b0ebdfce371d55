"""validate_cards and the stored reports, and the pages that show them."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.models import Card
from validator.checks import check_version
from validator.models import CardCheck

pytestmark = pytest.mark.django_db


def validate(*args: str) -> str:
    out = io.StringIO()
    call_command("validate_cards", *args, stdout=out)
    return out.getvalue()


def test_json_report_has_the_promised_shape(core_catalog: None) -> None:
    report = json.loads(validate("--set", "munchkin-core", "--json"))
    keys = {"cards", "full", "partial", "text_only", "verified", "failing"}
    assert set(report["summary"]) == keys
    assert keys <= set(report["sets"]["munchkin-core"])
    assert report["summary"]["cards"] == 147 and report["summary"]["failing"] == 0
    card = report["cards"][0]
    assert {"set", "name", "encoding", "status", "messages"} <= set(card)


def test_text_report_has_a_line_per_card_and_a_coverage_table(core_catalog: None) -> None:
    text = validate("--set", "munchkin-core")
    assert "PASS munchkin-core / Lame Goblin" in text
    assert "monster_enhancer" in text and text.strip().splitlines()[-1].startswith("all")


def test_one_card_and_markdown(core_catalog: None) -> None:
    text = validate("--card", "lame goblin", "--markdown")
    assert "| munchkin-core | Lame Goblin | full | pass |" in text
    assert "| kind | cards | full | partial | text_only | verified | failing |" in text


def test_reports_are_stored_and_reused(core_catalog: None) -> None:
    validate("--set", "munchkin-core")
    assert CardCheck.objects.filter(check_version=check_version()).count() == 147
    with CaptureQueriesContext(connection) as queries:
        validate("--set", "munchkin-core")
    assert len(queries) <= 3  # the cards, the stored reports, nothing written
    goblin = Card.objects.get(name="Lame Goblin")
    stored = CardCheck.objects.get(document_hash=goblin.document_hash)
    assert stored.status == "pass" and stored.verified


def test_a_failing_card_makes_the_command_fail(core_catalog: None) -> None:
    troll = Card.objects.get(name="Net Troll")
    CardCheck.objects.create(
        document_hash=troll.document_hash,
        check_version=check_version(),
        card_name="Net Troll",
        kind="monster",
        encoding="full",
        status="fail",
        messages=["fail: planted"],
    )
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 card"):
        call_command("validate_cards", "--card", "Net Troll", stdout=out)
    assert "FAIL munchkin-core / Net Troll" in out.getvalue() and "planted" in out.getvalue()


def test_no_cards_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="load_catalog"):
        validate()


def test_card_page_shows_the_badge_and_messages(client: Client, core_catalog: None) -> None:
    goblin = Card.objects.get(name="Lame Goblin")
    page = client.get(f"/sets/munchkin-core/{goblin.slug}/").content.decode()
    assert 'data-testid="validation">unchecked' in page
    validate("--set", "munchkin-core")
    page = client.get(f"/sets/munchkin-core/{goblin.slug}/").content.decode()
    assert 'data-testid="validation">pass' in page and "Verified" in page
    tuba = Card.objects.get(name="Tuba of Charm")
    page = client.get(f"/sets/munchkin-core/{tuba.slug}/").content.decode()
    assert "not yet encoded" in page


def test_set_page_shows_the_coverage_table(client: Client, core_catalog: None) -> None:
    validate("--set", "munchkin-core")
    page = client.get("/sets/munchkin-core/").content.decode()
    assert 'data-testid="coverage"' in page
    assert '<th scope="row">All</th><td>147</td>' in page.replace("\n", "")


def test_validation_benchmark_leaves_the_reports_as_they_were(core_catalog: None) -> None:
    validate("--card", "Lame Goblin")
    before = list(CardCheck.objects.values_list("document_hash", flat=True))
    out = io.StringIO()
    call_command("bench_validation", "--rounds", "1", stdout=out)
    text = out.getvalue()
    assert "validated 147 cards (0 failing)" in text and "cards/s" in text and "warm:" in text
    assert list(CardCheck.objects.values_list("document_hash", flat=True)) == before
