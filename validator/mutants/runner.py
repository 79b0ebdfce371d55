"""Running mutants: each in its own forked child, as many at once as there are cores.

The parent imports the engine and reads every set file once; each child plants one mutant,
runs the validator and (when the validator let it through) the scenario files, writes its
verdict to a pipe and exits, so no mutant ever reaches the parent or another child. A child
that outlives the time limit is killed and its mutant counted as timed out, in the phase it
was in. The unmutated engine runs first, in a child too, so the parent never warms a cache a
mutant could hide behind.
"""

from __future__ import annotations

import json
import os
import select
import signal
import time
import traceback
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from validator.mutants.operators import Mutant
from validator.mutants.planting import PlantingError, plant
from validator.mutants.suite import (
    WHOLE_GAMES,
    Reach,
    Suite,
    forget_caches,
    observe,
    scenario_failures,
    validator_failures,
)

SHOWN_FAILURES = 5


@dataclass
class Outcome:
    """What became of one mutant.

    status: "killed" (the validator failed a card), "killed by scenarios" (only the scenario
    files noticed), "survived", "timed out" (phase says whose run hung) or "error" (the
    mutator could not plant it: a bug here, never counted as killed).
    """

    mutant: Mutant
    status: str
    phase: str = ""  # "validator" or "scenarios": the run that failed or hung
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    reached_by: list[str] = field(default_factory=list)  # cards whose checks reach its lines
    scenarios_reaching: list[str] = field(default_factory=list)

    @property
    def caught_by_validator(self) -> bool:
        return self.status == "killed" or (self.status == "timed out" and self.phase == "validator")

    @property
    def caught(self) -> bool:
        return self.status in ("killed", "killed by scenarios", "timed out")


def _write(fd: int, message: dict[str, Any]) -> None:
    os.write(fd, (json.dumps(message) + "\n").encode())


def _silence() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)


def _child(work: Callable[[int], None]) -> tuple[int, int]:
    """Fork; the child runs `work(pipe)` and exits without returning. Returns (pid, read fd)."""
    read, write = os.pipe()
    with warnings.catch_warnings():
        # Python warns when forking a process with other threads. The mutation run starts none;
        # under a test runner, the others are native pools of imported libraries, and the child
        # runs only the engine and the checks, then leaves with os._exit.
        warnings.filterwarnings("ignore", "This process .* is multi-threaded", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        os.close(read)
        status = 0
        try:
            _silence()
            work(write)
        except BaseException:
            try:
                _write(write, {"error": traceback.format_exc(limit=6)})
            finally:
                status = 1
        finally:
            os._exit(status)
    os.close(write)
    return pid, read


def _collect(pid: int, read: int, deadline: float | None) -> tuple[list[dict[str, Any]], bool]:
    """Messages from a child until it exits; (messages, timed out)."""
    buffer = b""
    timed_out = False
    while True:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([read], [], [], wait)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            timed_out = True
            break
        chunk = os.read(read, 1 << 16)
        if not chunk:
            break
        buffer += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return [json.loads(line) for line in buffer.splitlines() if line.strip()], timed_out


def baseline(suite: Suite) -> tuple[list[str], list[str], Reach, float]:
    """The unmutated engine: failing cards, failing scenarios (both should be none), what each
    card and scenario reaches, and the seconds one judging takes."""

    def work(pipe: int) -> None:
        started = time.monotonic()
        verdict, reach = observe(suite)
        _write(pipe, {"cards": verdict.card_failures, "scenarios": verdict.scenario_failures})
        timed = time.monotonic()
        validator_failures(suite)
        scenario_failures(suite)
        seconds = time.monotonic() - timed
        _write(pipe, {"reach": reach.as_json(), "seconds": seconds, "observing": timed - started})

    pid, read = _child(work)
    messages, _ = _collect(pid, read, None)
    merged: dict[str, Any] = {}
    for message in messages:
        merged.update(message)
    if "error" in merged:
        raise RuntimeError(f"the unmutated engine could not be judged:\n{merged['error']}")
    return merged["cards"], merged["scenarios"], Reach.from_json(merged["reach"]), merged["seconds"]


def _judge_mutant(mutant: Mutant, suite: Suite, reach: Reach) -> Callable[[int], None]:
    cards, files = reach.observers(mutant.module, mutant.line, mutant.end_line)

    def work(pipe: int) -> None:
        try:
            plant(mutant)
        except PlantingError as exc:
            _write(pipe, {"error": str(exc)})
            return
        # Values the parent's engine memoised before the fork were computed by the unmutated
        # code; kept, they would hide the mutant from every card that reads them.
        forget_caches()
        for phase in ("validator", "scenarios"):
            if not (cards if phase == "validator" else files):
                continue
            _write(pipe, {"phase": phase})
            try:
                if phase == "validator":
                    failures = validator_failures(suite, cards, games=WHOLE_GAMES in cards)
                else:
                    failures = scenario_failures(suite, files)
            except Exception as exc:  # the mutant broke the checks themselves: noticed
                failures = [f"the {phase} run crashed: {type(exc).__name__}: {exc}"]
            if failures:
                _write(pipe, {"failures": failures[:SHOWN_FAILURES], "count": len(failures)})
                return

    return work


@dataclass
class _Running:
    mutant: Mutant
    pid: int
    read: int
    started: float
    buffer: bytes = b""


def _outcome(
    mutant: Mutant, messages: list[dict[str, Any]], timed_out: bool, took: float
) -> Outcome:
    phase = ""
    failures: list[str] = []
    for message in messages:
        if "error" in message:
            return Outcome(mutant, "error", failures=[message["error"]], seconds=took)
        phase = message.get("phase", phase)
        failures = message.get("failures", failures)
    if timed_out:
        return Outcome(mutant, "timed out", phase=phase, seconds=took)
    if failures:
        status = "killed" if phase == "validator" else "killed by scenarios"
        return Outcome(mutant, status, phase=phase, failures=failures, seconds=took)
    return Outcome(mutant, "survived", seconds=took)


def run_mutants(
    mutants: Sequence[Mutant],
    suite: Suite,
    reach: Reach,
    *,
    workers: int,
    timeout: float,
    on_done: Callable[[Outcome], None] = lambda outcome: None,
) -> list[Outcome]:
    """Judge every mutant, `workers` children at a time; outcomes in the mutants' order.

    Each mutant is judged by the cards and scenario files whose runs reach its lines, and a
    mutant nobody reaches survives without a run: sound, because a line that never runs
    cannot behave differently."""
    outcomes: dict[str, Outcome] = {}
    pending = list(mutants)
    running: dict[int, _Running] = {}

    def finish(job: _Running, timed_out: bool) -> None:
        if timed_out:
            os.kill(job.pid, signal.SIGKILL)
        os.close(job.read)
        os.waitpid(job.pid, 0)
        messages = [json.loads(x) for x in job.buffer.splitlines() if x.strip()]
        outcome = _outcome(job.mutant, messages, timed_out, time.monotonic() - job.started)
        cards, scenario_files = reach.observers(
            job.mutant.module, job.mutant.line, job.mutant.end_line
        )
        outcome.reached_by = sorted(cards)
        outcome.scenarios_reaching = sorted(scenario_files)
        outcomes[job.mutant.id] = outcome
        on_done(outcome)

    while pending or running:
        while pending and len(running) < workers:
            mutant = pending.pop(0)
            cards, scenario_files = reach.observers(mutant.module, mutant.line, mutant.end_line)
            if not cards and not scenario_files:
                outcome = Outcome(mutant, "survived")  # nothing runs its line: no need to fork
                outcomes[mutant.id] = outcome
                on_done(outcome)
                continue
            pid, read = _child(_judge_mutant(mutant, suite, reach))
            running[read] = _Running(mutant, pid, read, time.monotonic())
        if not running:
            continue
        ready, _, _ = select.select(list(running), [], [], 0.1)
        for read in ready:
            job = running[read]
            chunk = os.read(read, 1 << 16)
            if chunk:
                job.buffer += chunk
            else:
                del running[read]
                finish(job, timed_out=False)
        now = time.monotonic()
        for read, job in list(running.items()):
            if now - job.started > timeout:
                del running[read]
                finish(job, timed_out=True)
    return [outcomes[m.id] for m in mutants]
