"""What a check run reports: each card's `CardReport`, the version reports are kept under
(`check_version`: the engine's version and `CHECKS_VERSION`, raised by hand whenever a check
changes what it reports), and the coverage summary per set and per kind (`coverage`, with the
counts named in `SUMMARY_KEYS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from validator.engine import ENGINE_VERSION

CHECKS_VERSION = "16"


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


def check_version() -> str:
    """Reports are kept per (card document, engine version, checks version)."""
    return f"{ENGINE_VERSION}+checks{CHECKS_VERSION}"


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
