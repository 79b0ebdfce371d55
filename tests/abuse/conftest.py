"""The abuse suite: each hostile input from the hardening probe, sent in a process of its own.

`probe(request)` runs tests/abuse/probe.py with the request, against this test's database, and
returns what it answered and what it cost. The tests that use it commit their data
(`django_db(transaction=True)`) so the other process sees it. The child is bounded (CPU
seconds, address space, wall time) so that a regression fails the test instead of the machine.
"""

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection

REPO = Path(__file__).resolve().parents[2]

# The budgets of issue 15: every hostile request answers within these.
CPU_BUDGET_SECONDS = 2.0
MEMORY_BUDGET_MB = 100.0

# Hard ceilings on the child, far above the budgets: they only stop a runaway.
_CHILD_CPU_SECONDS = 60
_CHILD_ADDRESS_SPACE = 6 * 1024**3
_CHILD_WALL_SECONDS = 120


@dataclass
class Probed:
    status: int
    statuses: list[int]
    content_type: str
    retry_after: str | None
    body: str
    cpu_seconds: float
    memory_mb: float

    def json(self) -> Any:
        return json.loads(self.body)

    def within_budget(self) -> bool:
        return self.cpu_seconds <= CPU_BUDGET_SECONDS and self.memory_mb <= MEMORY_BUDGET_MB

    def __str__(self) -> str:
        return (
            f"{self.status} in {self.cpu_seconds:.2f} s CPU, +{self.memory_mb:.1f} MB peak: "
            f"{self.body[:300]}"
        )


def database_url() -> str:
    """The URL of the test database this process uses, for the child to open."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = quote(settings.get("USER") or "", safe="")
    password = quote(settings.get("PASSWORD") or "", safe="")
    host = settings.get("HOST") or "localhost"
    port = settings.get("PORT") or "5432"
    return f"postgres://{user}:{password}@{host}:{port}/{settings['NAME']}"


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (_CHILD_CPU_SECONDS, _CHILD_CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (_CHILD_ADDRESS_SPACE, _CHILD_ADDRESS_SPACE))


def run_probe(request: dict[str, Any], env: dict[str, str] | None = None) -> Probed:
    child_env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        **(env or {}),
    }
    result = subprocess.run(
        [sys.executable, "-m", "tests.abuse.probe"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=REPO,
        env=child_env,
        timeout=_CHILD_WALL_SECONDS,
        preexec_fn=_bounded,
        check=False,
    )
    if result.returncode != 0:
        raise AssertionError(f"the probe died (exit {result.returncode}): {result.stderr[-2000:]}")
    answer = Probed(**json.loads(result.stdout.strip().splitlines()[-1]))
    test = os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0].removeprefix("tests/abuse/")
    FIGURES.append((test, request.get("method", "GET"), request["path"], answer))
    return answer


# Every probe's answer, printed as a table at the end of the run: the figures of issue 15.
FIGURES: list[tuple[str, str, str, Probed]] = []


# The cost fuzzer's figures (tests/abuse/cost.py), gathered from every test's report so that
# they reach this summary from pytest-xdist's worker processes too.
COSTS: list[dict[str, Any]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # The fuzzer's fixture hands its figures over as it is torn down.
    if report.when == "teardown":
        for key, value in report.user_properties:
            if key == "cost" and isinstance(value, dict):
                COSTS.append(value)


def _cost_summary(terminalreporter: Any) -> None:
    if not COSTS:
        return
    write = terminalreporter.write_line
    terminalreporter.section(
        "cost fuzzer: worst input per entry point (budget: 50 ms + 20 ms per KB CPU, 50 MB)"
    )
    worst: dict[str, dict[str, Any]] = {}
    for cost in COSTS:
        budget = 0.050 + 0.020 * cost["size"] / 1024
        cost["ratio"] = max(cost["cpu_seconds"] / budget, cost["memory_mb"] / 50.0)
        if cost["status"] >= 500 or cost["status"] == 0:
            cost["ratio"] = max(cost["ratio"], 1e6)
        kept = worst.get(cost["entry"])
        if kept is None or cost["ratio"] > kept["ratio"]:
            worst[cost["entry"]] = cost
    write(f"{'bytes':>9} {'CPU s':>7} {'budget':>7} {'+MB':>6} {'status':>6}  entry point <- input")
    for entry, cost in sorted(worst.items(), key=lambda item: -item[1]["ratio"]):
        budget = 0.050 + 0.020 * cost["size"] / 1024
        over = "  OVER BUDGET" if cost["ratio"] > 1 else ""
        write(
            f"{cost['size']:>9,} {cost['cpu_seconds']:7.3f} {budget:7.3f} "
            f"{cost['memory_mb']:6.1f} {cost['status']:>6}  {entry} <- {cost['label']}{over}"
        )
    over_budget = sum(1 for cost in COSTS if cost["ratio"] > 1)
    write(f"{len(COSTS)} inputs at {len(worst)} entry points; {over_budget} over budget")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    _cost_summary(terminalreporter)
    if not FIGURES:
        return
    write = terminalreporter.write_line
    terminalreporter.section("abuse budget (per request: 2 s CPU, 100 MB)")
    write(f"{'CPU s':>7} {'+MB':>7} {'status':>6}  request  (test)")
    for test, method, path, answer in FIGURES:
        over = "" if answer.within_budget() else "  OVER BUDGET"
        write(
            f"{answer.cpu_seconds:7.3f} {answer.memory_mb:7.1f} {answer.status:>6}  "
            f"{method} {path[:60]}  ({test}){over}"
        )
    worst = max(FIGURES, key=lambda figure: figure[3].cpu_seconds)[3]
    write(f"{len(FIGURES)} requests; the costliest took {worst.cpu_seconds:.3f} s CPU")


@pytest.fixture
def probe(transactional_db: None) -> Callable[..., Probed]:
    """Send one request in a process of its own; see `run_probe`."""
    return run_probe
