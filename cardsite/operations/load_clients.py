"""The client side of the load test: many concurrent clients mixing the site's traffic.

Plain HTTP/1.1 over loopback (`http.client`, one keep-alive connection per client), so what is
measured is the server. Each client is a thread with its own seeded random choices and its own
API token; it reads pages, faces, static files and the API, and writes its own cards through
the API, remembering every write the server acknowledged so that the database can be checked
afterwards. The run is bounded twice: by a duration and by a total number of requests.

No Django here: `manage.py loadtest` prepares the database and the server, then runs this.
"""

from __future__ import annotations

import copy
import http.client
import json
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

# How often each kind of request is made, out of the sum. Writes are a tenth of the traffic:
# authoring is rarer than reading, but this is what contends for the database's write lock.
MIX: dict[str, int] = {
    "search page": 18,
    "card page": 18,
    "face image": 14,
    "api search": 14,
    "api card": 10,
    "api sets": 5,
    "static file": 6,
    "api create": 6,
    "api update": 5,
    "home page": 4,
}
WRITE_KINDS = ("api create", "api update")
# The ceiling: the same clients asking only for the health check, the cheapest answer that
# still goes through a web worker, the middleware and one query.
CEILING_KIND = "health check"
CEILING_MIX: dict[str, int] = {CEILING_KIND: 1}
REQUEST_TIMEOUT_SECONDS = 30.0

# Searches people type, in the search language (pages and the API share them).
QUERIES = [
    "t:monster",
    "chicken",
    "t:monster lvl>=10",
    "deck:treasure bonus>=3",
    "tag:undead",
    "slot:footgear",
    "o:level",
    "is:big",
    "dragon or troll",
    "t:monster (tag:undead or tag:shark) order:level",
    "set:munchkin-core t:curse",
    "usable:elf",
    "author:load0",
    "is:custom",
]


@dataclass(frozen=True)
class Targets:
    """What the clients may ask for, read from the database before the run."""

    card_pages: list[str]
    faces: list[str]
    card_ids: list[int]
    static_paths: list[str]
    # One (API token, set code) per client: each writes only into its own set.
    writers: list[tuple[str, str]]
    # Valid card documents to copy for new cards.
    templates: list[dict[str, Any]]


@dataclass
class Sample:
    kind: str
    seconds: float
    ok: bool


@dataclass
class AcknowledgedWrite:
    """A write the server answered 200/201 to: it must be in the database afterwards."""

    card_id: int
    revision: int
    name: str
    marker: str


@dataclass
class RunResult:
    samples: list[Sample] = field(default_factory=list)
    writes: list[AcknowledgedWrite] = field(default_factory=list)
    error_examples: list[str] = field(default_factory=list)
    errors: int = 0
    reconnects: int = 0
    seconds: float = 0.0


class Budget:
    """The shared bounds: a deadline and a number of requests, whichever comes first."""

    def __init__(self, *, seconds: float, requests: int) -> None:
        self.deadline = time.monotonic() + seconds
        self.left = requests
        self.issued = 0
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.left <= 0 or time.monotonic() >= self.deadline:
                return False
            self.left -= 1
            self.issued += 1
            return True


class Client:
    def __init__(
        self,
        *,
        number: int,
        port: int,
        targets: Targets,
        seed: int,
        budget: Budget,
        result: RunResult,
        lock: threading.Lock,
        mix: dict[str, int],
    ) -> None:
        self.number = number
        self.kinds = list(mix)
        self.weights = [mix[kind] for kind in self.kinds]
        self.port = port
        self.targets = targets
        self.random = random.Random(seed * 1000 + number)
        self.budget = budget
        self.result = result
        self.lock = lock
        self.token, self.set_code = targets.writers[number]
        self.connection = self._connect()
        # The client's own cards: id -> (revision, document), from acknowledged answers only.
        self.cards: dict[int, tuple[int, dict[str, Any]]] = {}
        self.created = 0

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT_SECONDS)

    def run(self) -> None:
        try:
            while self.budget.take():
                self.one(self.random.choices(self.kinds, weights=self.weights)[0])
        finally:
            self.connection.close()

    def one(self, kind: str) -> None:
        if kind == "api update" and not self.cards:
            kind = "api create"
        if kind == "api create":
            self._create()
            return
        if kind == "api update":
            self._update()
            return
        path = self._read_path(kind)
        self._request(kind, "GET", path, expect=200)

    def _read_path(self, kind: str) -> str:
        pick = self.random.choice
        targets = self.targets
        if kind == "search page":
            return "/cards/?q=" + quote(pick(QUERIES), safe="")
        if kind == "api search":
            return "/api/cards/?q=" + quote(pick(QUERIES), safe="")
        if kind == "api card":
            return f"/api/cards/{pick(targets.card_ids)}/"
        fixed = {"home page": "/", "api sets": "/api/sets/", CEILING_KIND: "/healthz/"}
        if kind in fixed:
            return fixed[kind]
        choices = {
            "card page": targets.card_pages,
            "face image": targets.faces,
            "static file": targets.static_paths,
        }
        return pick(choices[kind])

    def _create(self) -> None:
        self.created += 1
        document = copy.deepcopy(self.random.choice(self.targets.templates))
        marker = f"load {self.number}-{self.created} r1"
        document["name"] = f"Load {self.number} {self.created}"
        document["notes"] = marker
        body = {"set": self.set_code, "effects": document}
        answer = self._request("api create", "POST", "/api/cards/", expect=201, body=body)
        if answer is not None:
            card_id, revision = int(answer["id"]), int(answer["revision"])
            self.cards[card_id] = (revision, document)
            self._acknowledge(card_id, revision, document["name"], marker)

    def _update(self) -> None:
        card_id = self.random.choice(list(self.cards))
        revision, document = self.cards[card_id]
        document = copy.deepcopy(document)
        marker = f"load {self.number} card {card_id} r{revision + 1}"
        document["notes"] = marker
        body = {"revision": revision, "effects": document}
        answer = self._request(
            "api update", "PATCH", f"/api/cards/{card_id}/", expect=200, body=body
        )
        if answer is not None:
            new_revision = int(answer["revision"])
            self.cards[card_id] = (new_revision, document)
            self._acknowledge(card_id, new_revision, document["name"], marker)

    def _acknowledge(self, card_id: int, revision: int, name: str, marker: str) -> None:
        with self.lock:
            self.result.writes.append(AcknowledgedWrite(card_id, revision, name, marker))

    def _request(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        expect: int,
        body: dict[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """One request, timed from sending to the last byte of the answer. A write goes on a
        fresh connection, so that it is never sent on one the server has just closed (then
        whether it was received could not be known); a read retries once in that case."""
        headers = {"Host": "127.0.0.1", "Accept-Encoding": "gzip"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers |= {
                "Content-Type": "application/json",
                "Authorization": f"Token {self.token}",
            }
            self.connection.close()
        started = time.perf_counter()
        try:
            status, data = self._exchange(method, path, payload, headers, retry=body is None)
        except (OSError, http.client.HTTPException) as exc:
            self.connection.close()
            self._record(kind, started, ok=False, problem=f"{method} {path}: {exc!r}")
            return None
        ok = status == expect
        problem = "" if ok else f"{method} {path}: {status} {data[:300]!r}"
        self._record(kind, started, ok=ok, problem=problem)
        if not ok or body is None:
            return None
        answer: dict[str, Any] = json.loads(data)
        return answer

    def _exchange(
        self, method: str, path: str, payload: bytes | None, headers: dict[str, str], retry: bool
    ) -> tuple[int, bytes]:
        try:
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            if not retry:
                raise
            # The server closed this keep-alive connection while it was idle (a worker was
            # replaced, or its keep-alive time ran out): a browser would retry the same way.
            with self.lock:
                self.result.reconnects += 1
            self.connection.close()
            self.connection = self._connect()
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
        data = response.read()
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        return response.status, data

    def _record(self, kind: str, started: float, *, ok: bool, problem: str) -> None:
        sample = Sample(kind, time.perf_counter() - started, ok)
        with self.lock:
            self.result.samples.append(sample)
            if not ok:
                self.result.errors += 1
                if len(self.result.error_examples) < 10:
                    self.result.error_examples.append(f"{kind}: {problem}")


def run_clients(
    *,
    port: int,
    targets: Targets,
    clients: int,
    seconds: float,
    requests: int,
    seed: int,
    mix: dict[str, int] | None = None,
    progress: Callable[[int], None] | None = None,
    make_client: Callable[..., Client] | None = None,
) -> RunResult:
    """Run `clients` concurrent clients against 127.0.0.1:`port` until `seconds` have passed
    or `requests` requests were made, each request's kind drawn from `mix` (default: MIX);
    return every timing, error and acknowledged write. `make_client` makes each client
    (default: a Client) from the same keywords, for a client that does more per request."""
    result = RunResult()
    lock = threading.Lock()
    budget = Budget(seconds=seconds, requests=requests)
    workers = [
        (make_client or Client)(
            number=n,
            port=port,
            targets=targets,
            seed=seed,
            budget=budget,
            result=result,
            lock=lock,
            mix=MIX if mix is None else mix,
        )
        for n in range(clients)
    ]
    threads = [threading.Thread(target=w.run, name=f"client-{w.number}") for w in workers]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads):
        time.sleep(0.25)
        if progress is not None:
            progress(budget.issued)
    for thread in threads:
        thread.join()
    result.seconds = time.monotonic() - started
    if progress is not None:
        progress(budget.issued)
    return result


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..100) of `values`, 0 when there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share / 100 * len(ordered)))
    return ordered[rank - 1]


def summary(result: RunResult, ceiling: RunResult | None = None) -> dict[str, Any]:
    """Throughput, latency percentiles (ms) and errors, overall and per kind of request.
    With the `ceiling` run (the same clients asking only for the health check, as long), it
    is summed up too, and every throughput is also given as a fraction of the ceiling's."""
    ceiling_rps = len(ceiling.samples) / ceiling.seconds if ceiling and ceiling.seconds else 0.0

    def figures(samples: list[Sample], seconds: float) -> dict[str, Any]:
        times = [s.seconds * 1000 for s in samples]
        rate = len(samples) / seconds if seconds else 0.0
        row: dict[str, Any] = {
            "requests": len(samples),
            "errors": sum(1 for s in samples if not s.ok),
            "throughput_rps": round(rate, 1),
            "p50_ms": round(percentile(times, 50), 1),
            "p95_ms": round(percentile(times, 95), 1),
            "p99_ms": round(percentile(times, 99), 1),
        }
        if ceiling_rps:
            row["of_ceiling"] = round(rate / ceiling_rps, 3)
        return row

    overall = figures(result.samples, result.seconds)
    overall["seconds"] = round(result.seconds, 2)
    overall["reconnects"] = result.reconnects
    kinds = sorted({s.kind for s in result.samples})
    report: dict[str, Any] = {
        "overall": overall,
        "kinds": {
            k: figures([s for s in result.samples if s.kind == k], result.seconds) for k in kinds
        },
        "error_examples": result.error_examples,
    }
    # The card writes' p95 (creates and updates together) against the API's two reads.
    writes = [s.seconds for s in result.samples if s.kind in WRITE_KINDS]
    write_p95 = percentile(writes, 95)
    report["write_p95_ms"] = round(write_p95 * 1000, 1)
    report["write_p95_over_read_p95"] = {
        k: round(write_p95 * 1000 / report["kinds"][k]["p95_ms"], 2)
        for k in ("api card", "api search")
        if writes and report["kinds"].get(k, {}).get("p95_ms")
    }
    if ceiling is not None:
        report["ceiling"] = figures(ceiling.samples, ceiling.seconds)
        report["ceiling"]["seconds"] = round(ceiling.seconds, 2)
        report["error_examples"] = result.error_examples + ceiling.error_examples
    return report
