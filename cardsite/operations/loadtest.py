"""Load test: concurrent clients against the site served by gunicorn on loopback.

A scratch database on the configured server (a temporary SQLite file in WAL mode, or
`<name>_loadtest` beside the DATABASE_URL database on PostgreSQL) gets the catalog, one user,
API token and public set per client. The site then runs as in production (`manage.py serve`:
DEBUG off, collected static files served by WhiteNoise, gunicorn's web processes, a task
worker) on a free loopback port, and the clients (`cardsite/operations/load_clients.py`) mix
searches, card pages, face images, static files, API reads and API writes until the duration or
the number of requests runs out. Before them, the same clients ask only for the health check
(`/healthz/`, one query) for as long: the ceiling, the most requests a second this server
answers at all, of which every kind's throughput is also given as a fraction. The report gives
throughput, p50/p95/p99 latency and errors, reads every acknowledged write back from the
database, and waits for every written card to have its validation report (the task worker
checks cards after their save). The budget is 0 errors, 0 lost writes and 0 cards left
unchecked: the command fails when one is missed. Nothing of the configured database is touched.

`--simulation-flood` runs the other scenario instead (issue 34, cardsite/operations/load_flood.py):
fresh accounts, each from an address of its own, queue simulations on the pack page (3 x 3),
then the clients write cards through the API beside them, each waiting for its card's report.
Its budget: every simulation queued, 0 errors, 0 lost writes, and every write's validation delay
within FLOOD_VALIDATION_BUDGET_SECONDS.
"""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import OutputWrapper
from django.core.management.color import Style
from django.db import connection, transaction
from django.db.models import Count
from tqdm import tqdm

from accounts.services import token_create
from cardsite.operations import OperationError
from cardsite.operations.load_clients import (
    CEILING_MIX,
    WRITE_KINDS,
    AcknowledgedWrite,
    RunResult,
    Targets,
    percentile,
    run_clients,
    summary,
)
from cardsite.operations.load_flood import (
    POLL_LIMIT_SECONDS,
    FloodResult,
    flood_simulations,
    probe_validation,
)
from cardsite.operations.loopback import (
    free_port,
    loopback_server_environment,
    prepare_loopback_site,
)
from catalog.management.scratch import scratch_database
from catalog.models import Card, CardRevision, Visibility
from catalog.services import catalog_load, default_fixture_paths, set_create
from packs.models import PackSimulation, SimulationStatus
from packs.services import pack_build, pack_create
from packs.simulations import MAX_GAMES
from prints.selectors import face_key
from validator.selectors import checks_for

SERVER_START_SECONDS = 90
# The flood run: fresh accounts x simulations each, each of the most games a simulation may
# have (the flood asks for the most work it can).
FLOOD_ACCOUNTS, FLOOD_SIMULATIONS_EACH = 3, 3
FLOOD_GAMES = MAX_GAMES
# The bound on a saved card's validation under the flood (README: 0 to 2.5 s unloaded).
FLOOD_VALIDATION_BUDGET_SECONDS = 5.0
FLOOD_PASSWORD = "flooding-the-queue-42"
MANAGE = str(Path(settings.BASE_DIR) / "manage.py")
# How long the task worker has, after the clients stop, to check the last cards written.
VALIDATION_WAIT_SECONDS = 180


def loadtest(
    *,
    clients: int,
    duration: float,
    requests: int,
    web_workers: int,
    threads: int,
    seed: int,
    report: Path | None,
    stdout: OutputWrapper,
    style: Style,
) -> None:
    """Run the load test in a scratch database: `clients` concurrent clients against the site
    under gunicorn (`web_workers` processes x `threads` threads) for at most `duration` seconds
    or `requests` requests, after as long a run of the health check alone (the ceiling).
    Print the figures (and write them to `report` as JSON when given); raise when a request
    erred, an acknowledged write was lost or a written card was never validated."""
    with scratch_database(purpose="loadtest") as scratch:
        stdout.write(f"Scratch database: {connection.vendor} {_where()}")
        env = loopback_server_environment(scratch)
        prepare_loopback_site(env)
        targets = _prepare(clients, _static_paths(env), stdout)
        port = free_port()
        server = _start_server(env, port, web_workers, threads, scratch, stdout)
        try:
            bounds = f"at most {duration:g} s or {requests:,} requests"
            stdout.write(f"Ceiling: {clients} clients asking for /healthz/ only, {bounds}…")
            ceiling = _run(port, targets, clients, duration, requests, seed, CEILING_MIX)
            stdout.write(f"The mix: {clients} clients, {bounds}…")
            result = _run(port, targets, clients, duration, requests, seed, None)
            stdout.write("Waiting for the task worker to validate the cards written…")
            unchecked, waited = cards_unchecked_after(result.writes, VALIDATION_WAIT_SECONDS)
        finally:
            _stop(server)
        connection.close()  # the server's writes are read back on a new connection
        lost = writes_lost(result.writes)
        figures = summary(result, ceiling)
        figures["database"] = connection.vendor
        figures["clients"] = clients
        figures["web"] = f"{web_workers} processes x {threads} threads"
        figures["writes"] = {
            "acknowledged": len(result.writes),
            "lost": lost,
            "cards": len({w.card_id for w in result.writes}),
            "unchecked": unchecked,
            "validated_after_s": round(waited, 1),
        }
        _print(figures, stdout, style)
    if report:
        report.write_text(json.dumps(figures, indent=2) + "\n")
    errors = figures["overall"]["errors"] + figures["ceiling"]["errors"]
    if errors or lost or unchecked:
        raise OperationError(
            f"budget missed: {errors} errors, {len(lost)} lost writes, "
            f"{len(unchecked)} cards unchecked"
        )
    stdout.write(style.SUCCESS("Budget met: 0 errors, 0 lost writes, 0 cards unchecked."))


def _where() -> str:
    name = str(connection.settings_dict["NAME"])
    return name if connection.vendor != "sqlite" else f"{name} (WAL)"


def _prepare(clients: int, static_paths: list[str], stdout: OutputWrapper) -> Targets:
    stdout.write("Loading the catalog and making one user, token and set per client…")
    catalog_load(paths=default_fixture_paths(settings.CATALOG_FIXTURES_DIR))
    writers = []
    for n in range(clients):
        with transaction.atomic():
            user = User.objects.create_user(f"load{n}", password=None)
            _, key = token_create(user=user, name="load test")
            card_set = set_create(
                owner=user,
                code=f"load-{n}",
                name=f"Load test set {n}",
                visibility=Visibility.PUBLIC,
            )
        writers.append((key, card_set.code))
    cards = list(Card.objects.select_related("card_set").order_by("pk"))
    templates = [
        c.document for c in cards if c.kind in ("monster", "item", "curse") and c.encoding == "full"
    ]
    return Targets(
        card_pages=[f"/sets/{c.card_set.code}/{quote(c.slug)}/" for c in cards],
        faces=[f"/faces/{c.pk}/{face_key(c)}.png" for c in cards],
        card_ids=[c.pk for c in cards],
        static_paths=static_paths,
        writers=writers,
        templates=templates,
    )


def _static_paths(env: dict[str, str]) -> list[str]:
    manifest = json.loads((Path(env["STATIC_ROOT"]) / "staticfiles.json").read_text())
    own = ("catalog/", "authoring/")
    hashed = [path for name, path in manifest["paths"].items() if name.startswith(own)]
    if not hashed:
        raise OperationError("collectstatic gathered none of the site's own static files")
    return [f"/static/{path}" for path in sorted(hashed)]


def _start_server(
    env: dict[str, str],
    port: int,
    web_workers: int,
    threads: int,
    scratch: Path,
    stdout: OutputWrapper,
) -> subprocess.Popen[bytes]:
    log_path = scratch / "server.log"
    command = [sys.executable, MANAGE, "serve", "--bind", f"127.0.0.1:{port}"]
    command += ["--workers", str(web_workers), "--threads", str(threads)]
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=settings.BASE_DIR
        )
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise OperationError(f"the server stopped at start:\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/sets/", timeout=5):
                pass
            stdout.write(
                f"Server up on 127.0.0.1:{port}: gunicorn, {web_workers} "
                f"processes x {threads} threads, a task worker per queue, DEBUG off."
            )
            return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    _stop(server)
    raise OperationError(f"the server did not answer in {SERVER_START_SECONDS} s")


def _run(
    port: int,
    targets: Targets,
    clients: int,
    duration: float,
    requests: int,
    seed: int,
    mix: dict[str, int] | None,
) -> RunResult:
    with tqdm(total=requests, unit="req", file=sys.stderr) as bar:

        def progress(issued: int) -> None:
            bar.update(issued - bar.n)

        return run_clients(
            port=port,
            targets=targets,
            clients=clients,
            seconds=duration,
            requests=requests,
            seed=seed,
            mix=mix,
            progress=progress,
        )


def cards_unchecked_after(
    writes: list[AcknowledgedWrite], seconds: float
) -> tuple[list[int], float]:
    """Wait up to `seconds` for every card written to have a validation report of its
    current document; return the ids of those still without one, and how long it took."""
    card_ids = sorted({write.card_id for write in writes})
    started = time.monotonic()
    while True:
        hashes = dict(Card.everything.filter(pk__in=card_ids).values_list("pk", "document_hash"))
        checked = checks_for(document_hashes=hashes.values())
        unchecked = [pk for pk in card_ids if hashes.get(pk) not in checked]
        waited = time.monotonic() - started
        if not unchecked or waited >= seconds:
            return unchecked, waited
        time.sleep(0.5)


def writes_lost(writes: list[AcknowledgedWrite]) -> list[str]:
    """Every acknowledged write, read back: the card with its name, every acknowledged
    revision with the document that was sent, and the card at its latest one. One line per
    write that is missing or differs (none: nothing was lost)."""
    lost: list[str] = []
    by_card: dict[int, list[AcknowledgedWrite]] = defaultdict(list)
    for write in writes:
        by_card[write.card_id].append(write)
    cards = Card.objects.in_bulk(list(by_card))
    revisions = {
        (r.card_id, r.number): r.document.get("notes")
        for r in CardRevision.objects.filter(card_id__in=list(by_card))
    }
    for card_id, acknowledged in by_card.items():
        card = cards.get(card_id)
        if card is None or card.deleted_at is not None:
            lost.append(f"card {card_id} is not in the database")
            continue
        latest = max(acknowledged, key=lambda w: w.revision)
        if card.revision != latest.revision or card.document.get("notes") != latest.marker:
            lost.append(f"card {card_id} is at revision {card.revision}, not {latest.revision}")
        if card.name != latest.name:
            lost.append(f"card {card_id} is named {card.name!r}, not {latest.name!r}")
        for write in acknowledged:
            if revisions.get((card_id, write.revision)) != write.marker:
                lost.append(f"card {card_id} revision {write.revision} is missing or differs")
    return lost


def _print(figures: dict[str, Any], stdout: OutputWrapper, style: Style) -> None:
    overall, ceiling = figures["overall"], figures["ceiling"]
    stdout.write("")
    stdout.write(
        f"{figures['database']}, {figures['clients']} clients, {figures['web']}: "
        f"{overall['requests']:,} requests in {overall['seconds']} s = "
        f"{overall['throughput_rps']} requests/s; {overall['reconnects']} idle keep-alive "
        "connections reopened"
    )
    stdout.write(
        f"Ceiling (/healthz/ alone, the same clients): {ceiling['requests']:,} requests in "
        f"{ceiling['seconds']} s = {ceiling['throughput_rps']} requests/s"
    )
    stdout.write(
        f"{'':<14}{'requests':>9}{'errors':>8}{'req/s':>8}{'of ceiling':>11}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
    )
    rows = [*figures["kinds"].items(), ("all", overall), ("ceiling", ceiling)]
    for kind, row in rows:
        stdout.write(
            f"{kind:<14}{row['requests']:>9,}{row['errors']:>8}{row['throughput_rps']:>8}"
            f"{row['of_ceiling']:>11.3f}{row['p50_ms']:>9}{row['p95_ms']:>9}{row['p99_ms']:>9}"
        )
    ratios = ", ".join(f"{r} x {k}" for k, r in figures["write_p95_over_read_p95"].items())
    stdout.write(f"Card writes' p95: {figures['write_p95_ms']} ms = {ratios or 'no reads'}'s p95")
    for example in figures["error_examples"]:
        stdout.write(style.ERROR(f"  {example}"))
    writes = figures["writes"]
    write_requests = sum(figures["kinds"].get(k, {}).get("requests", 0) for k in WRITE_KINDS)
    stdout.write(
        f"Writes: {write_requests:,} sent, {writes['acknowledged']:,} acknowledged, "
        f"{len(writes['lost'])} lost (every acknowledged card, revision and document read "
        "back from the database)."
    )
    for problem in writes["lost"][:10]:
        stdout.write(style.ERROR(f"  {problem}"))
    stdout.write(
        f"Validation: {writes['cards'] - len(writes['unchecked']):,} of the {writes['cards']:,} "
        f"cards written have their report, {writes['validated_after_s']} s after the last "
        "request."
    )
    if writes["unchecked"]:
        stdout.write(style.ERROR(f"  unchecked: cards {writes['unchecked'][:20]}"))


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# -- the flood run -----------------------------------------------------------------------------


def loadtest_flood(
    *,
    clients: int,
    duration: float,
    requests: int,
    web_workers: int,
    threads: int,
    seed: int,
    report: Path | None,
    stdout: OutputWrapper,
    style: Style,
) -> None:
    """The flood run (see the module's docstring): FLOOD_ACCOUNTS fresh accounts queue
    FLOOD_SIMULATIONS_EACH simulations each, then `clients` clients write cards (at most
    `requests` writes in `duration` seconds), each waiting for its card's report. Print the
    validation delays (and write everything to `report` as JSON); raise when a simulation was
    not queued, a request erred, a write was lost or a delay passed the budget."""
    # A scratch database of its own name: the mix and the flood may run at the same time (the
    # test suite's workers do), and each drops its database with whoever is still on it.
    with scratch_database(purpose="loadflood") as scratch:
        stdout.write(f"Scratch database: {connection.vendor} {_where()}")
        # One proxy believed: each flood account comes from the address it sends.
        env = loopback_server_environment(scratch) | {"NUM_PROXIES": "1"}
        prepare_loopback_site(env)
        targets = _prepare(clients, _static_paths(env), stdout)
        pack_id = _flood_pack()
        port = free_port()
        server = _start_server(env, port, web_workers, threads, scratch, stdout)
        try:
            stdout.write(
                f"The flood: {FLOOD_ACCOUNTS} fresh accounts, {FLOOD_SIMULATIONS_EACH} "
                f"simulations of {FLOOD_GAMES} games each…"
            )
            flood = flood_simulations(
                port=port,
                pack_id=pack_id,
                accounts=FLOOD_ACCOUNTS,
                per_account=FLOOD_SIMULATIONS_EACH,
                games=FLOOD_GAMES,
                password=FLOOD_PASSWORD,
            )
            running = _wait_for_a_running_simulation(seconds=60)
            stdout.write(
                f"Card writes beside it: {clients} clients, at most {duration:g} s or "
                f"{requests:,} writes, each waiting for its report…"
            )
            result, delays = probe_validation(
                port=port,
                targets=targets,
                clients=clients,
                seconds=duration,
                writes=requests,
                seed=seed,
            )
            simulations = _simulation_states()
        finally:
            _stop(server)
        connection.close()
        lost = writes_lost(result.writes)
        figures = flood_figures(flood, running, simulations, result, delays, lost)
        figures["database"] = connection.vendor
        figures["web"] = f"{web_workers} processes x {threads} threads"
        _print_flood(figures, stdout)
    if report:
        report.write_text(json.dumps(figures, indent=2) + "\n")
    problems = flood_problems(figures)
    if problems:
        raise OperationError("budget missed: " + "; ".join(problems))
    stdout.write(
        style.SUCCESS(
            f"Budget met: {figures['flood']['simulations_started']} simulations queued, 0 "
            f"errors, 0 lost writes, every report within {FLOOD_VALIDATION_BUDGET_SECONDS:g} s."
        )
    )


def _flood_pack() -> int:
    """A pack of the core set with no owner (anyone may simulate it), as a flood would pick."""
    built = pack_build(actor=None, set_codes=["munchkin-core"], name="Flood")
    return pack_create(actor=None, built=built).pk


def _wait_for_a_running_simulation(*, seconds: float) -> bool:
    """Wait until the task worker runs one of the flood's simulations (the writes are to be
    measured beside it); whether one did in time."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if PackSimulation.objects.filter(status=SimulationStatus.RUNNING).exists():
            return True
        time.sleep(0.3)
    return False


def _simulation_states() -> dict[str, int]:
    counts = PackSimulation.objects.values_list("status").annotate(n=Count("pk"))
    return {str(status): int(n) for status, n in counts}


def flood_figures(
    flood: FloodResult,
    running: bool,
    simulations: dict[str, int],
    result: RunResult,
    delays: list[float],
    lost: list[str],
) -> dict[str, Any]:
    measured = [d for d in delays if math.isfinite(d)]
    figures = summary(result)
    return {
        "flood": {
            "accounts": flood.accounts,
            "simulations_started": flood.started,
            "refused": flood.refused,
            "a_simulation_ran_beside_the_writes": running,
            "simulations_at_the_end": simulations,
        },
        "validation_delay_s": {
            "writes": len(delays),
            "without_report": len(delays) - len(measured),
            "p50": round(percentile(measured, 50), 2),
            "p95": round(percentile(measured, 95), 2),
            # None: a write had no report within POLL_LIMIT_SECONDS.
            "max": round(max(delays), 2) if measured == delays and delays else None,
            "budget": FLOOD_VALIDATION_BUDGET_SECONDS,
        },
        "overall": figures["overall"],
        "kinds": figures["kinds"],
        "error_examples": figures["error_examples"],
        "writes": {"acknowledged": len(result.writes), "lost": lost},
    }


def flood_problems(figures: dict[str, Any]) -> list[str]:
    flood, delay = figures["flood"], figures["validation_delay_s"]
    wanted = FLOOD_ACCOUNTS * FLOOD_SIMULATIONS_EACH
    problems = []
    if flood["simulations_started"] != wanted:
        problems.append(f"{flood['simulations_started']} of {wanted} simulations queued")
    if not flood["a_simulation_ran_beside_the_writes"]:
        problems.append("no simulation ran beside the writes")
    if figures["overall"]["errors"]:
        problems.append(f"{figures['overall']['errors']} errors")
    if figures["writes"]["lost"]:
        problems.append(f"{len(figures['writes']['lost'])} lost writes")
    if not delay["writes"]:
        problems.append("no write was measured")
    elif delay["without_report"]:
        problems.append(
            f"{delay['without_report']} writes had no report within {POLL_LIMIT_SECONDS:g} s"
        )
    elif delay["max"] > FLOOD_VALIDATION_BUDGET_SECONDS:
        problems.append(
            f"a write waited {delay['max']} s for its report "
            f"(budget {FLOOD_VALIDATION_BUDGET_SECONDS:g} s)"
        )
    return problems


def _print_flood(figures: dict[str, Any], stdout: OutputWrapper) -> None:
    flood, delay = figures["flood"], figures["validation_delay_s"]
    stdout.write("")
    stdout.write(
        f"The flood: {flood['accounts']} accounts signed up, "
        f"{flood['simulations_started']} simulations queued; at the end "
        + ", ".join(f"{n} {state}" for state, n in sorted(flood["simulations_at_the_end"].items()))
    )
    for refusal in flood["refused"][:10]:
        stdout.write(f"  refused: {refusal}")
    overall = figures["overall"]
    stdout.write(
        f"Card writes beside it ({figures['database']}, {figures['web']}): "
        f"{figures['writes']['acknowledged']} acknowledged, {overall['errors']} errors, "
        f"{len(figures['writes']['lost'])} lost; write p95 {overall['p95_ms']} ms"
    )
    longest = f"{delay['max']} s" if delay["max"] is not None else "no report"
    stdout.write(
        f"Validation delay (the write's answer to its report), {delay['writes']} writes: "
        f"p50 {delay['p50']} s, p95 {delay['p95']} s, max {longest} (budget {delay['budget']:g} "
        f"s; {delay['without_report']} without a report within {POLL_LIMIT_SECONDS:g} s)"
    )
    for example in figures["error_examples"]:
        stdout.write(f"  {example}")
