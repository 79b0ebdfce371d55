"""What a check run reports: each card's `CardReport`, what reports are kept under
(`check_version`: a digest of the source that makes the verdicts, `code_hash`), and the
coverage summary per set and per kind (`coverage`, with the counts named in `SUMMARY_KEYS`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from validator.engine import ENGINE_VERSION, VALIDATOR_DIR, source_digest

# Everything a verdict is made by, under VERDICT_ROOT: the engine that plays the card and the
# checks that generate its scenarios and predict their results. The checks read no file (their
# scenarios are built in memory, their reference cards are Python; the whole games are dealt
# from the catalog's cards, passed in), so these sources are all of it.
VERDICT_ROOT = VALIDATOR_DIR
VERDICT_SOURCES = ("engine", "checks")


@dataclass
class CardReport:
    set_code: str
    name: str
    kind: str
    encoding: str
    status: str = "pass"  # pass | warn | fail
    verified: bool = False
    messages: list[str] = field(default_factory=list)
    scenarios_run: int = 0
    failing_scenario: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "set": self.set_code,
            "name": self.name,
            "kind": self.kind,
            "encoding": self.encoding,
            "status": self.status,
            "verified": self.verified,
            "messages": self.messages,
            "scenarios_run": self.scenarios_run,
            "failing_scenario": self.failing_scenario,
        }

    def warn(self, message: str) -> None:
        self.messages.append(f"warn: {message}")
        if self.status == "pass":
            self.status = "warn"

    def fail(self, message: str, scenario: dict[str, Any] | None = None) -> None:
        self.messages.append(f"fail: {message}")
        self.status = "fail"
        if scenario is not None and self.failing_scenario is None:
            self.failing_scenario = yaml.safe_dump(scenario, sort_keys=False, width=100)


@functools.cache
def code_hash() -> str:
    """The digest (sha256, hex) of every Python file of the engine and the checks
    (`VERDICT_SOURCES`): their paths and bytes, computed once per process."""
    return source_digest(VERDICT_ROOT, VERDICT_SOURCES)


def check_version() -> str:
    """What a stored report is kept under beside its card document: the code that made it.

    `code_hash()` decides: any change to the engine or the checks is another key, so every card
    is checked again by the new code and no verdict of the old code is read back as current;
    nothing has to be raised by hand. ENGINE_VERSION before it is a label for people reading
    the table (it lives in a hashed file, so it never changes without the digest)."""
    return f"{ENGINE_VERSION}+{code_hash()}"


SUMMARY_KEYS = ("cards", "full", "partial", "text_only", "verified", "failing")


def summarize(reports: Sequence[CardReport]) -> dict[str, int]:
    """The counts named in `SUMMARY_KEYS` over these reports."""
    return {
        "cards": len(reports),
        "full": sum(r.encoding == "full" for r in reports),
        "partial": sum(r.encoding == "partial" for r in reports),
        "text_only": sum(r.encoding == "text_only" for r in reports),
        # Only a fully encoded card counts as verified, whatever a stored report says: a
        # partial card's checks cover only the part that is encoded.
        "verified": sum(r.verified and r.encoding == "full" for r in reports),
        "failing": sum(r.status == "fail" for r in reports),
    }


def coverage(reports: Sequence[CardReport]) -> dict[str, Any]:
    """The summary, per set and per kind within each set."""
    out: dict[str, Any] = {"summary": summarize(reports), "sets": {}}
    for code in sorted({r.set_code for r in reports}):
        in_set = [r for r in reports if r.set_code == code]
        kinds = {
            kind: summarize([r for r in in_set if r.kind == kind])
            for kind in sorted({r.kind for r in in_set})
        }
        out["sets"][code] = {**summarize(in_set), "kinds": kinds}
    return out
