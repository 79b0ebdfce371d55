"""The load test: a small real run against gunicorn (on the database the suite runs on: SQLite,
or PostgreSQL in CI's second pass), and its parts that decide the verdict."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from cardsite.operations.load_clients import (
    CEILING_KIND,
    MIX,
    AcknowledgedWrite,
    RunResult,
    Sample,
    percentile,
    summary,
)
from cardsite.operations.loadtest import writes_lost
from catalog.models import CardSet
from catalog.services import card_create, card_update, set_create
from tests.factories import monster_document

# The slow tier (make test-slow, run by CI): the load test starts a server and its clients.
pytestmark = pytest.mark.slow


def test_a_small_run_meets_the_budget_and_reports_every_figure(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = subprocess.run(
        [
            *(sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "loadtest"),
            # A deadline far past what 400 requests take: the count ends the run, not the clock.
            *("--clients", "4", "--duration", "300", "--requests", "400"),
            *("--web-workers", "2", "--threads", "2", "--report", str(report)),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=settings.BASE_DIR,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    figures = json.loads(report.read_text())
    overall, kinds = figures["overall"], figures["kinds"]
    assert overall["errors"] == 0
    # Every request asked for was made and measured once, in exactly one kind.
    assert overall["requests"] == 400
    assert sum(kind["requests"] for kind in kinds.values()) == 400
    # The seconds are rounded to 10 ms: over a 3 s run that is up to 0.2% of the rate.
    assert overall["throughput_rps"] == pytest.approx(400 / overall["seconds"], rel=0.005, abs=0.2)
    # With no errors, every write sent was acknowledged (and read back below).
    writes_sent = kinds["api create"]["requests"] + kinds["api update"]["requests"]
    assert figures["writes"]["acknowledged"] == writes_sent > 0
    assert figures["writes"]["lost"] == []
    # Every kind of request was made (400 requests leave none of ten kinds out).
    assert set(figures["kinds"]) == set(MIX)
    # Every card written has its validation report by the end (checked after its save).
    assert figures["writes"]["cards"] == kinds["api create"]["requests"]
    assert figures["writes"]["unchecked"] == []
    # The ceiling: as many requests again (the count ends it too), all of the health check.
    ceiling = figures["ceiling"]
    assert ceiling["requests"] == 400 and ceiling["errors"] == 0
    # Half a second of health checks: the seconds' rounding to 10 ms counts in the rate.
    ceiling_rps = 400 / ceiling["seconds"]
    assert ceiling["throughput_rps"] == pytest.approx(ceiling_rps, rel=0.02)
    # Each kind's throughput is its own count over the run's time, and that over the ceiling.
    for row in [*kinds.values(), overall]:
        rate = row["requests"] / overall["seconds"]
        assert row["throughput_rps"] == pytest.approx(rate, rel=0.01, abs=0.06)
        assert row["of_ceiling"] == pytest.approx(rate / ceiling_rps, rel=0.03, abs=0.002)
    assert sum(kind["of_ceiling"] for kind in kinds.values()) == pytest.approx(
        overall["of_ceiling"], abs=0.006
    )
    assert set(figures["write_p95_over_read_p95"]) == {"api card", "api search"}
    assert "Budget met: 0 errors, 0 lost writes, 0 cards unchecked." in result.stdout
    assert "p99 ms" in result.stdout and "of ceiling" in result.stdout


@pytest.fixture
def own_card(db: None) -> tuple[User, CardSet, int]:
    user = User.objects.create_user("writer", password="unused-password-1")
    card_set = set_create(owner=user, code="writer-set", name="Writer set")
    document = monster_document(name="Written Monster")
    document["notes"] = "r1"
    card = card_create(card_set=card_set, actor=user, document=document)
    document["notes"] = "r2"
    card_update(card=card, actor=user, document=document, base_revision=1)
    return user, card_set, card.pk


def test_verification_finds_every_acknowledged_write(own_card: tuple[User, CardSet, int]) -> None:
    _, _, card_id = own_card
    writes = [
        AcknowledgedWrite(card_id, 1, "Written Monster", "r1"),
        AcknowledgedWrite(card_id, 2, "Written Monster", "r2"),
    ]
    assert writes_lost(writes) == []


@pytest.mark.parametrize(
    ("revision", "name", "marker", "problem"),
    [
        # A revision the server said it kept but the database does not hold.
        (3, "Written Monster", "r3", "is at revision 2, not 3"),
        # The revision is there but holds another document than the one sent.
        (2, "Written Monster", "r2 lost", "revision 2 is missing or differs"),
        (2, "Renamed", "r2", "is named 'Written Monster', not 'Renamed'"),
    ],
)
def test_verification_reports_a_lost_write(
    own_card: tuple[User, CardSet, int], revision: int, name: str, marker: str, problem: str
) -> None:
    _, _, card_id = own_card
    lost = writes_lost([AcknowledgedWrite(card_id, revision, name, marker)])
    assert any(problem in line for line in lost), lost


def test_verification_reports_a_card_that_is_not_there(db: None) -> None:
    lost = writes_lost([AcknowledgedWrite(10**9, 1, "Gone", "r1")])
    assert lost == [f"card {10**9} is not in the database"]


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile(values, 99) == 99.0
    assert percentile([7.0], 99) == 7.0
    assert percentile([], 50) == 0.0
    # The worked example of the nearest-rank method (Wikipedia, "Percentile"), given unsorted.
    example = [50.0, 15.0, 40.0, 20.0, 35.0]
    assert [percentile(example, p) for p in (5, 30, 40, 50, 100)] == [15, 20, 20, 35, 50]


def test_summary_counts_errors_per_kind() -> None:
    result = RunResult(
        samples=[
            Sample("card page", 0.010, True),
            Sample("card page", 0.030, False),
            Sample("api create", 0.100, True),
        ],
        seconds=2.0,
    )
    figures = summary(result)
    assert figures["overall"]["requests"] == 3
    assert figures["overall"]["errors"] == 1
    assert figures["overall"]["throughput_rps"] == 1.5
    assert figures["kinds"]["card page"] == {
        "requests": 2,
        "errors": 1,
        "throughput_rps": 1.0,
        "p50_ms": 10.0,
        "p95_ms": 30.0,
        "p99_ms": 30.0,
    }
    assert "ceiling" not in figures and "of_ceiling" not in figures["overall"]


def test_summary_gives_each_throughput_as_a_fraction_of_the_ceiling() -> None:
    result = RunResult(
        samples=[
            *[Sample("card page", 0.050, True)] * 30,
            *[Sample("api card", 0.020, True)] * 10,
            *[Sample("api create", 0.200, True)] * 4,
            Sample("api update", 0.100, True),
        ],
        seconds=5.0,
    )
    ceiling = RunResult(samples=[Sample(CEILING_KIND, 0.004, True)] * 1000, seconds=4.0)
    figures = summary(result, ceiling)
    # 250 health checks a second; 30 card pages in 5 s are 6 a second, 6 / 250 = 0.024.
    assert figures["ceiling"]["throughput_rps"] == 250.0
    assert figures["ceiling"]["of_ceiling"] == 1.0
    assert figures["kinds"]["card page"]["of_ceiling"] == 0.024
    assert figures["kinds"]["api card"]["of_ceiling"] == 0.008
    assert figures["overall"]["of_ceiling"] == 0.036
    # The writes' p95 (the 5 of creates and updates: 200 ms) over the API card read's (20 ms).
    assert figures["write_p95_ms"] == 200.0
    assert figures["write_p95_over_read_p95"] == {"api card": 10.0}
