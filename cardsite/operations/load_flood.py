"""The client side of the load test's flood run (`manage.py loadtest --simulation-flood`).

Issue 34 found the job queue starved by free accounts: three fresh accounts queued three
simulations each, and another user's card then waited 223 s for its validation. The flood run
does the same through the site's own pages: `flood_simulations` signs up fresh accounts (each
from an address of its own, sent in X-Forwarded-For to a server told to believe one proxy) and
has each start simulations of a pack on the pack page, as a browser would (the CSRF token, the
session cookie). Then `probe_validation` has other clients write cards through the API, each
write followed by reads of the card until its `validation` is no longer "unchecked": the time
from the write's answer to the first read that shows the report is the write's validation
delay, what a person who saved a card waits to see its verdict.

No Django here, as in load_clients.py.
"""

from __future__ import annotations

import http.client
import json
import re
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

from cardsite.operations.load_clients import (
    REQUEST_TIMEOUT_SECONDS,
    AcknowledgedWrite,
    Client,
    RunResult,
    Targets,
    run_clients,
)

# How often a prober reads its card while waiting for the report, and for how long at most.
POLL_SECONDS = 0.1
POLL_LIMIT_SECONDS = 120.0
_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class FloodResult:
    """What the flood's requests were answered: the simulations started, those refused (with
    the status and the start of the page), and the accounts made."""

    accounts: int = 0
    started: int = 0
    refused: list[str] = field(default_factory=list)


class _Browser:
    """One person's browser: a keep-alive connection, its cookies, an address of its own."""

    def __init__(self, port: int, address: str) -> None:
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=REQUEST_TIMEOUT_SECONDS
        )
        self.address = address
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str]:
        headers = {"Host": "127.0.0.1", "X-Forwarded-For": self.address}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        for header in response.msg.get_all("Set-Cookie") or []:
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(header)
            self.cookies.update({name: morsel.value for name, morsel in cookie.items()})
        return response.status, text

    def form_token(self, path: str) -> str:
        status, text = self.request("GET", path)
        found = _TOKEN.search(text)
        if status != 200 or found is None:
            raise RuntimeError(f"GET {path}: {status}, no form to fill in")
        return found.group(1)


def flood_simulations(
    *, port: int, pack_id: int, accounts: int, per_account: int, games: int, password: str
) -> FloodResult:
    """Sign up `accounts` fresh accounts, each from an address of its own, and have each start
    `per_account` simulations of `games` games of the pack `pack_id` on its page."""
    result = FloodResult()
    for n in range(accounts):
        browser = _Browser(port, f"203.0.113.{n + 1}")
        try:
            token = browser.form_token("/accounts/signup/")
            form = {
                "csrfmiddlewaretoken": token,
                "username": f"flood{n}",
                "password1": password,
                "password2": password,
            }
            status, text = browser.request("POST", "/accounts/signup/", form)
            if status != 302:
                result.refused.append(f"sign-up {n}: {status} {text[:200]!r}")
                continue
            result.accounts += 1
            for _ in range(per_account):
                # The pack has no owner: anyone may simulate it, with the session's CSRF
                # token (the cookie, renewed at the log-in, as a script would send it).
                form = {"csrfmiddlewaretoken": browser.cookies["csrftoken"], "games": str(games)}
                status, text = browser.request("POST", f"/packs/{pack_id}/simulate/", form)
                if status == 302:
                    result.started += 1
                else:
                    result.refused.append(f"simulation of account {n}: {status} {text[:200]!r}")
        finally:
            browser.connection.close()
    return result


class _Prober(Client):
    """A card writer that, after each acknowledged write, reads the card until its
    validation report is there, and notes how long that took."""

    delays: list[float]

    def run(self) -> None:
        try:
            while self.budget.take():
                update = bool(self.cards) and self.random.random() < 0.5
                written = len(self.result.writes)
                self.one("api update" if update else "api create")
                with self.lock:
                    mine = self.result.writes[written:]
                    ours = [w for w in mine if w.card_id in self.cards]
                if ours:
                    self._wait_for_report(ours[-1])
        finally:
            self.connection.close()

    def _wait_for_report(self, write: AcknowledgedWrite) -> None:
        acknowledged = time.perf_counter()
        while time.perf_counter() - acknowledged < POLL_LIMIT_SECONDS:
            card = self._card(write.card_id)
            # The report of this very revision: an older one's does not count.
            if (
                card is not None
                and card.get("revision") == write.revision
                and card.get("validation") != "unchecked"
            ):
                with self.lock:
                    self.delays.append(time.perf_counter() - acknowledged)
                return
            time.sleep(POLL_SECONDS)
        with self.lock:
            self.delays.append(float("inf"))

    def _card(self, card_id: int) -> dict[str, Any] | None:
        headers = {"Host": "127.0.0.1", "Authorization": f"Token {self.token}"}
        try:
            status, data = self._exchange(
                "GET", f"/api/cards/{card_id}/", None, headers, retry=True
            )
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = self._connect()
            return None
        if status != 200:
            return None
        answer: dict[str, Any] = json.loads(data)
        return answer


def probe_validation(
    *, port: int, targets: Targets, clients: int, seconds: float, writes: int, seed: int
) -> tuple[RunResult, list[float]]:
    """`clients` writers, each writing a card (a new one or an edit of its own) and then
    waiting for its report, until `seconds` have passed or `writes` writes were made. Returns
    the writes' timings and acknowledgements, and each write's validation delay in seconds
    (infinite: no report within POLL_LIMIT_SECONDS)."""
    delays: list[float] = []

    def prober(**keywords: Any) -> Client:
        made = _Prober(**keywords)
        made.delays = delays
        return made

    result = run_clients(
        port=port,
        targets=targets,
        clients=clients,
        seconds=seconds,
        requests=writes,
        seed=seed,
        mix={"api create": 1},
        make_client=prober,
    )
    return result, delays
