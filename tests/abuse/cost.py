"""The cost fuzzer of issue 34: every entry point of the site, inputs grown to cost, each
request measured in a bounded child process (tests/abuse/cost_server.py).

The budget (issue 34): an input of N bytes costs at most 50 ms + 20 ms per KB of CPU, and at
most 50 MB of peak memory, and is never a server error. `CostServer` keeps one child up for
many requests; `ENTRY_POINTS` lists what a request can reach (JSON bodies, YAML fields, query
strings, multipart uploads, ids in paths), each turning a payload into a request; `GROWERS`
makes, per kind of payload, inputs of at most N bytes built to cost (string bombs, escapes,
deep nesting, alias trees, many keys, long numbers in every base, non-scalar keys, huge ids,
big images). Every measured request is kept in `FIGURES`, whose worst per entry point
tests/abuse/conftest.py prints at the end of the run.
"""

from __future__ import annotations

import base64
import io
import json
import os
import resource
import selectors
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image

from tests.hostile import byte_alias_bomb, json_string_bomb

REPO = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------------------------
# The budget
# --------------------------------------------------------------------------------------------

BASE_CPU_SECONDS = 0.050
CPU_SECONDS_PER_KB = 0.020
MEMORY_BUDGET_MB = 50.0


def cpu_budget(size: int) -> float:
    """What an input of `size` bytes may cost in CPU seconds."""
    return BASE_CPU_SECONDS + CPU_SECONDS_PER_KB * size / 1024


# Hard ceilings on the child, far above any budget: they only stop a runaway.
_CHILD_CPU_SECONDS = 3600  # the child's whole life, many requests
_CHILD_ADDRESS_SPACE = 4 * 1024**3
_START_SECONDS = 120


def _answer_deadline(size: int) -> float:
    """Wall seconds to wait for an answer before the child is killed and the input counted as
    over budget: twice the CPU budget and a margin for a machine shared with other work."""
    return 2 * cpu_budget(size) + 10


@dataclass
class Cost:
    entry: str
    label: str
    size: int
    status: int  # 0: no answer (the child was killed or died)
    cpu_seconds: float
    memory_mb: float
    body: str = ""
    body_bytes: int = 0
    tier: str = "quick"
    baseline_cpu: float = 0.0

    @property
    def budget(self) -> float:
        return cpu_budget(self.size)

    @property
    def ratio(self) -> float:
        """How much of its budget the input used (CPU or memory, whichever is more)."""
        return max(self.cpu_seconds / self.budget, self.memory_mb / MEMORY_BUDGET_MB)

    def problem(self) -> str | None:
        if self.status == 0:
            return "no answer: " + self.body
        if self.status >= 500:
            return f"server error {self.status}"
        if self.cpu_seconds > self.budget:
            return f"{self.cpu_seconds:.2f} s CPU > {self.budget:.2f} s"
        if self.memory_mb > MEMORY_BUDGET_MB:
            return f"+{self.memory_mb:.0f} MB > {MEMORY_BUDGET_MB:.0f} MB"
        return None

    def __str__(self) -> str:
        return (
            f"{self.entry} <- {self.label} ({self.size:,} B): {self.status}, "
            f"{self.cpu_seconds:.3f} s CPU (budget {self.budget:.3f}), "
            f"+{self.memory_mb:.1f} MB: {self.body[:200]!r}"
        )


# Every measured request of this process (the conftest reads them through each test's
# user_properties, so they reach the summary under pytest-xdist too).
FIGURES: list[Cost] = []


# --------------------------------------------------------------------------------------------
# The child
# --------------------------------------------------------------------------------------------


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (_CHILD_CPU_SECONDS, _CHILD_CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (_CHILD_ADDRESS_SPACE, _CHILD_ADDRESS_SPACE))


class CostServer:
    """One child (tests/abuse/cost_server.py) on the test database, answering request after
    request; started again after an input killed it."""

    def __init__(self, database_url: str, media_root: str, faces: str) -> None:
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "MEDIA_ROOT": media_root,
            "FACE_CACHE_DIR": faces,
            # What a request queues is run in it, so its cost is counted in it (never in the
            # next request's figure), except the faces and bulk files made ahead of need.
            "TASKS_BACKEND": "immediate",
            "FACES_AHEAD": "false",
            "BULK_DATA_AHEAD": "false",
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.errors = Path(media_root).parent / "child.err"
        self.warmed: dict[str, float] = {}

    def _start(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.abuse.cost_server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors.open("ab"),
            cwd=REPO,
            env=self.env,
            preexec_fn=_bounded,
        )
        line = self._read_line(process, _START_SECONDS)
        if line is None or not json.loads(line).get("ready"):
            self._kill(process)
            tail = self.errors.read_text(errors="replace")[-3000:] if self.errors.exists() else ""
            raise AssertionError(f"the cost fuzzer's child did not start: {tail}")
        return process

    @staticmethod
    def _read_line(process: subprocess.Popen[bytes], seconds: float) -> bytes | None:
        assert process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout=seconds):
                return None
        line = process.stdout.readline()
        return line or None

    @staticmethod
    def _kill(process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)

    def close(self) -> None:
        if self.process is not None:
            if self.process.stdin is not None:
                self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._kill(self.process)
            self.process = None

    def send(self, spec: dict[str, Any], size: int) -> dict[str, Any] | None:
        """The child's answer to one request, or None when it gave none in time (killed)."""
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        process = self.process
        assert process.stdin is not None
        cpu_before = _child_cpu(process.pid)
        started = time.monotonic()
        try:
            process.stdin.write(json.dumps(spec).encode() + b"\n")
            process.stdin.flush()
        except BrokenPipeError:
            line = None
        else:
            line = self._read_line(process, _answer_deadline(size))
        if line is None:
            spent = _child_cpu(process.pid) - cpu_before
            self._kill(process)
            self.process = None
            wall = time.monotonic() - started
            return {
                "status": 0,
                "cpu_seconds": max(spent, 0.0),
                "memory_mb": 0.0,
                "body": f"killed after {wall:.0f} s wall",
                "body_bytes": 0,
            }
        answer: dict[str, Any] = json.loads(line)
        return answer

    def measure(self, entry: EntryPoint, payload: Payload, label: str, tier: str) -> Cost:
        """One input's cost at `entry`, after the entry point was warmed up (its lazy imports,
        templates and caches paid by a harmless input, twice, not counted)."""
        if entry.name not in self.warmed:
            for _ in range(2):
                warm = self.send(entry.request(entry.harmless), len(entry.harmless))
            self.warmed[entry.name] = float((warm or {}).get("cpu_seconds", 0.0))
        size = len(payload.encode() if isinstance(payload, str) else payload)
        answer = self.send(entry.request(payload), size)
        assert answer is not None
        cost = Cost(
            entry=entry.name,
            label=label,
            size=size,
            status=int(answer["status"]),
            cpu_seconds=float(answer["cpu_seconds"]),
            memory_mb=float(answer["memory_mb"]),
            body=str(answer["body"])[:300],
            body_bytes=int(answer["body_bytes"]),
            tier=tier,
            baseline_cpu=self.warmed[entry.name],
        )
        FIGURES.append(cost)
        return cost


def _child_cpu(pid: int) -> float:
    """CPU seconds a live process has used (/proc), 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def figure_record(cost: Cost) -> dict[str, Any]:
    return asdict(cost)


# --------------------------------------------------------------------------------------------
# Entry points: a payload (text or bytes) -> a request
# --------------------------------------------------------------------------------------------

Payload = str | bytes

OWN_SET = "alice-set"
OWN_CARD = "probe"
OFFICIAL_SET = "munchkin-core"
USER = "alice"

HARMLESS_CARD = {
    "name": "Probe",
    "deck": "door",
    "kind": "monster",
    "level": 1,
    "treasures": 1,
    "encoding": {"status": "full"},
}


def card_form(document_yaml: str, **extra: str) -> dict[str, str]:
    return {
        "name": "Probe",
        "kind": "monster",
        "deck": "door",
        "copies": "1",
        "document_yaml": document_yaml,
        **extra,
    }


@dataclass(frozen=True)
class EntryPoint:
    name: str
    kind: str  # json, yaml, query, id, image
    request: Callable[[Any], dict[str, Any]]
    harmless: Any


def _json_body(path: str, user: str | None = None) -> Callable[[Any], dict[str, Any]]:
    def request(payload: Any) -> dict[str, Any]:
        return {"method": "POST", "path": path, "body": payload, "user": user}

    return request


def _form(path: str, make: Callable[[str], dict[str, str]]) -> Callable[[Any], dict[str, Any]]:
    def request(payload: Any) -> dict[str, Any]:
        return {"method": "POST", "path": path, "data": make(payload), "user": USER}

    return request


def _query(path: str, name: str) -> Callable[[Any], dict[str, Any]]:
    def request(payload: Any) -> dict[str, Any]:
        return {"path": path, "data": {name: payload}}

    return request


def _id(method: str, template: str, body: str | None = None) -> Callable[[Any], dict[str, Any]]:
    def request(payload: Any) -> dict[str, Any]:
        spec: dict[str, Any] = {"method": method, "path": template.format(payload), "user": USER}
        if body is not None:
            spec["body"] = body
        return spec

    return request


def _upload(path: str, field_name: str, data: dict[str, str]) -> Callable[[Any], dict[str, Any]]:
    def request(payload: Any) -> dict[str, Any]:
        upload = {
            "name": "card.png",
            "content_type": "image/png",
            "base64": base64.b64encode(payload).decode(),
        }
        return {
            "method": "POST",
            "path": path,
            "data": data,
            "files": {field_name: upload},
            "user": USER,
        }

    return request


def _effects_multipart(payload: Any) -> dict[str, Any]:
    return {
        "method": "POST",
        "path": f"/api/sets/{OFFICIAL_SET}/proposals/",
        "data": {"effects": payload, "evidence": "my copy of the card"},
        "user": USER,
    }


_CARD_JSON = json.dumps(HARMLESS_CARD)
_EVIDENCE = {"evidence": "my copy of the card"}
_VALID_YAML = "level: 1\ntreasures: 1\nencoding: {status: full}\n"
_PROPOSAL_FORM = {**card_form(_VALID_YAML), **_EVIDENCE}

ENTRY_POINTS: list[EntryPoint] = [
    # JSON bodies: every one goes through the one JSON reader (validator/engine/cards/reader.py)
    EntryPoint("POST /api/validate/", "json", _json_body("/api/validate/"), _CARD_JSON),
    EntryPoint(
        "POST /api/cards/collection/",
        "json",
        _json_body("/api/cards/collection/"),
        '{"identifiers": [{"name": "Bullrog"}]}',
    ),
    EntryPoint(
        "POST /api/cards/",
        "json",
        _json_body("/api/cards/", USER),
        json.dumps({"set": "nowhere", "effects": HARMLESS_CARD}),
    ),
    EntryPoint(
        "POST /api/packs/", "json", _json_body("/api/packs/", USER), '{"sets": ["nowhere"]}'
    ),
    EntryPoint(
        "POST /api/scenarios/run/", "json", _json_body("/api/scenarios/run/"), '{"scenario": 1}'
    ),
    EntryPoint("POST /api/proxies/", "json", _json_body("/api/proxies/", USER), '{"cards": []}'),
    EntryPoint(
        f"POST /api/sets/{OFFICIAL_SET}/proposals/",
        "json",
        _json_body(f"/api/sets/{OFFICIAL_SET}/proposals/", USER),
        json.dumps({"effects": {"name": 1}, "evidence": "x"}),
    ),
    EntryPoint(
        "POST /api/sets/<set>/proposals/ (multipart effects)",
        "json",
        _effects_multipart,
        '{"name": 1}',
    ),
    EntryPoint("POST /api/games/", "json", _json_body("/api/games/", USER), '{"sets": []}'),
    # YAML in form fields (and in a JSON body)
    EntryPoint(
        "POST /author/preview/<set>/",
        "yaml",
        _form(f"/author/preview/{OWN_SET}/", card_form),
        "level: 1\n",
    ),
    EntryPoint(
        "POST /author/sets/<set>/add-card/",
        "yaml",
        _form(f"/author/sets/{OWN_SET}/add-card/", card_form),
        "level: 1\n",
    ),
    EntryPoint(
        "POST /sets/<set>/propose/preview/",
        "yaml",
        _form(f"/sets/{OFFICIAL_SET}/propose/preview/", card_form),
        "level: 1\n",
    ),
    EntryPoint(
        "POST /sets/<set>/<card>/scenarios/add/",
        "yaml",
        _form(
            f"/sets/{OWN_SET}/{OWN_CARD}/scenarios/add/",
            lambda text: {"name": "fuzz", "text": text},
        ),
        "name: x\n",
    ),
    EntryPoint(
        "POST /sets/import/",
        "yaml",
        _form("/sets/import/", lambda text: {"text": text, "visibility": "private"}),
        "set: {code: x}\n",
    ),
    # Query strings
    EntryPoint("GET /api/cards/?q=", "query", _query("/api/cards/", "q"), "bull"),
    EntryPoint("GET /cards/?q=", "query", _query("/cards/", "q"), "bull"),
    EntryPoint("GET /api/cards/named/?exact=", "query", _query("/api/cards/named/", "exact"), "x"),
    EntryPoint("GET /api/cards/named/?fuzzy=", "query", _query("/api/cards/named/", "fuzzy"), "x"),
    EntryPoint(
        "GET /api/cards/autocomplete/?q=", "query", _query("/api/cards/autocomplete/", "q"), "b"
    ),
    EntryPoint("GET /cards/advanced/?name=", "query", _query("/cards/advanced/", "name"), "bull"),
    # Ids in paths
    EntryPoint("GET /api/games/<id>/", "id", _id("GET", "/api/games/{}/?seat=x"), "1"),
    EntryPoint("POST /api/games/<id>/moves/", "id", _id("POST", "/api/games/{}/moves/", "{}"), "1"),
    EntryPoint("POST /api/games/<id>/undo/", "id", _id("POST", "/api/games/{}/undo/", "{}"), "1"),
    EntryPoint("GET /play/<id>/", "id", _id("GET", "/play/{}/"), "1"),
    EntryPoint("GET /api/cards/<id>/", "id", _id("GET", "/api/cards/{}/"), "1"),
    EntryPoint("GET /api/packs/<id>/", "id", _id("GET", "/api/packs/{}/"), "1"),
    EntryPoint("GET /api/proposals/<id>/", "id", _id("GET", "/api/proposals/{}/"), "1"),
    EntryPoint("GET /proposals/<id>/", "id", _id("GET", "/proposals/{}/"), "1"),
    EntryPoint("GET /cards/<id>/art", "id", _id("GET", "/cards/{}/art"), "1"),
    EntryPoint("GET /faces/<id>/<digest>.png", "id", _id("GET", "/faces/{}/0.png"), "1"),
    EntryPoint("GET /packs/<id>/", "id", _id("GET", "/packs/{}/"), "1"),
    # Uploads (multipart)
    EntryPoint(
        "POST /sets/<set>/propose/ (photo)",
        "image",
        _upload(f"/sets/{OFFICIAL_SET}/propose/", "photo", _PROPOSAL_FORM),
        b"",
    ),
    EntryPoint(
        "POST /author/sets/<set>/add-card/ (art)",
        "image",
        _upload(f"/author/sets/{OWN_SET}/add-card/", "art", card_form(_VALID_YAML)),
        b"",
    ),
    EntryPoint(
        "POST /api/sets/<set>/proposals/ (photo)",
        "image",
        _upload(
            f"/api/sets/{OFFICIAL_SET}/proposals/",
            "photo",
            {"effects": _CARD_JSON, **_EVIDENCE},
        ),
        b"",
    ),
]

ENTRIES = {entry.name: entry for entry in ENTRY_POINTS}


def entries_of(kind: str) -> list[EntryPoint]:
    return [entry for entry in ENTRY_POINTS if entry.kind == kind]


# --------------------------------------------------------------------------------------------
# Growers: (size in bytes) -> a payload of at most that size, built to cost
# --------------------------------------------------------------------------------------------


def _fit(head: str, unit: str, tail: str, size: int) -> str:
    """head + unit * k + tail, with k as large as `size` bytes allow (at least one unit)."""
    room = size - len((head + tail).encode())
    count = max(1, room // max(1, len(unit.encode())))
    return head + unit * count + tail


def sized_string_bomb(size: int) -> str:
    """Issue 34's JSON string bomb (tests.hostile) of at most `size` bytes."""
    return json_string_bomb(max(1, (size - 1) // 2))


def _card_with(key_text: str, where: str) -> str:
    if where == "effect":
        return '{"name": "Probe", "deck": "door", "kind": "monster", "level": 1, ' + (
            '"treasures": 1, "effects": [{"type": "strength", "amount": 1, ' + key_text + "}]}"
        )
    return '{"name": "Probe", "deck": "door", "kind": "monster", ' + key_text + "}"


def json_many_keys(size: int, where: str = "effect") -> str:
    """A card whose effects[0] (or whose top level) has as many unknown keys as fit."""
    shell = len(_card_with("", where))
    count = max(1, (size - shell) // len('"k000000": 1, '))
    keys = ", ".join(f'"k{i:06d}": 1' for i in range(count))
    return _card_with(keys, where)


JSON_GROWERS: dict[str, Callable[[int], str]] = {
    "string bomb": sized_string_bomb,
    "string bomb in a list": lambda n: _fit('["', '\\"', "", n),
    "escapes": lambda n: _fit('{"name": "', "\\u00e9", '"}', n),
    "backslash runs": lambda n: _fit('{"name": "', "\\\\", '"}', n),
    "deep nesting": lambda n: _fit("", "[", "", n),
    "deep objects": lambda n: _fit("", '{"a":', "", n),
    "many keys in an effect": json_many_keys,
    "many top-level keys": lambda n: json_many_keys(n, "top"),
    "many items": lambda n: _fit('{"identifiers": [', '{"id": 1}, ', '{"id": 1}]}', n),
    "long integer": lambda n: _fit('{"level": ', "9", "}", n),
    "long fraction": lambda n: _fit('{"level": 1.', "9", "}", n),
    "long exponent": lambda n: _fit('{"level": 1e', "9", "}", n),
    "many strings": lambda n: _fit("[", '"a", ', '"a"]', n),
}


def sized_alias_bomb(size: int) -> str:
    """Issue 34's alias bomb in bytes (tests.hostile: five levels of ten aliases of one long
    string), its string as long as `size` bytes allow."""
    shell = len(byte_alias_bomb(0).encode())
    return byte_alias_bomb(max(1, size - shell))


def yaml_alias_tree(size: int) -> str:
    """The classic alias bomb: nine levels of nine copies (under 1 KB), its leaf grown."""
    tree = "".join(
        f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]\n"
        for level in range(1, 9)
    )
    return _fit("a0: &a0 [", "lol, ", "lol]\n" + tree, size)


def _repeat_block(head: str, unit: Callable[[int], str], size: int) -> str:
    parts = [head]
    used = len(head.encode())
    index = 0
    while True:
        piece = unit(index)
        if used + len(piece.encode()) > size and index:
            break
        parts.append(piece)
        used += len(piece.encode())
        index += 1
    return "".join(parts)


YAML_GROWERS: dict[str, Callable[[int], str]] = {
    "alias bomb in bytes": sized_alias_bomb,
    "alias tree": yaml_alias_tree,
    "flow nesting": lambda n: _fit("tags: ", "[", "", n),
    "flow mappings nesting": lambda n: _fit("effects: ", "{a: ", "", n),
    "block nesting": lambda n: _repeat_block("", lambda i: " " * i + f"k{i}:\n", n),
    "many keys in an effect": lambda n: _repeat_block(
        "effects:\n  - type: strength\n", lambda i: f"    k{i}: 1\n", n
    ),
    "many top-level keys": lambda n: _repeat_block("", lambda i: f"k{i}: 1\n", n),
    "many bad effects": lambda n: _repeat_block("effects:\n", lambda i: f"  - {{type: x{i}}}\n", n),
    "many cards of bad effects": lambda n: _repeat_block(
        "set: {code: fuzz, name: Fuzz}\ncards:\n",
        lambda i: f"  - {{name: C{i}, kind: monster, effects: [{{type: a}}, {{type: b}}]}}\n",
        n,
    ),
    "hex number in a list": lambda n: _fit("tags: [0x", "f", "]\n", n),
    "hex level": lambda n: _fit("level: 0x", "f", "\n", n),
    "octal level": lambda n: _fit("level: 0o", "7", "\n", n),
    "binary level": lambda n: _fit("level: 0b", "1", "\n", n),
    "old octal level": lambda n: _fit("level: 0", "7", "\n", n),
    "sexagesimal level": lambda n: _fit("level: 1", ":59", "\n", n),
    "underscored level": lambda n: _fit("level: 1", "_0", "\n", n),
    "unicode digits": lambda n: _fit("level: ", "\u0669", "\n", n),
    "long float": lambda n: _fit("level: 1.", "5", "e5\n", n),
    "non-scalar keys (block)": lambda n: _repeat_block("", lambda i: f"? [{i}]\n: 2\n", n),
    "non-scalar keys (flow)": lambda n: (
        _repeat_block("x: {", lambda i: f"[{i}]: 2, " if i else "{a: 1}: 2, ", n) + "z: 1}\n"
    ),
    "escapes": lambda n: _fit('notes: "', "\\x41", '"\n', n),
    "anchors": lambda n: _repeat_block("tags: [", lambda i: f"&a{i} x, ", n) + "x]\n",
}


QUERY_GROWERS: dict[str, Callable[[int], str]] = {
    "parentheses": lambda n: _fit("", "(", "x", n),
    "negations": lambda n: _fit("", "-(", "x", n),
    "many terms": lambda n: _fit("", "bull or ", "duck", n),
    "many fields": lambda n: _fit("", "name:a ", "", n),
    "long word": lambda n: _fit("", "x", "", n),
    "quotes": lambda n: _fit("", '"', "", n),
    "accented": lambda n: _fit("", "é", "", n),
    "wildcards": lambda n: _fit("", "*?", "", n),
    "numbers": lambda n: _fit("level>", "9", "", n),
}


ID_GROWERS: dict[str, Callable[[int], str]] = {
    "2**63": lambda n: str(2**63),
    "2**64": lambda n: str(2**64),
    "twenty nines": lambda n: "9" * 20,
    "nines": lambda n: "9" * max(1, min(n, 4000)),
}


def _png(width: int, height: int, mode: str) -> bytes:
    out = io.BytesIO()
    Image.new(mode, (width, height)).save(out, "PNG", optimize=False)
    return out.getvalue()


@cache
def png_of_side(side: int, mode: str = "RGB") -> bytes:
    return _png(side, side, mode)


def _png_declaring(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims width x height (its pixels cut short)."""
    import struct
    import zlib

    data = bytearray(_png(8, 8, "RGB"))
    ihdr = struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return bytes(data)


def _largest_png(size: int, mode: str) -> bytes:
    """The largest square blank PNG of `mode` that fits in `size` bytes (sides in steps)."""
    best = png_of_side(64, mode)
    for side in (1000, 2000, 4000, 6000):
        image = png_of_side(side, mode)
        if len(image) > size:
            break
        best = image
    return best


IMAGE_GROWERS: dict[str, Callable[[int], bytes]] = {
    "16 megapixels (4000x4000 RGB)": lambda n: png_of_side(4000),
    "largest RGB that fits": lambda n: _largest_png(n, "RGB"),
    "largest 1-bit that fits": lambda n: _largest_png(n, "1"),
    "header claims 12000x12000": lambda n: _png_declaring(12000, 12000),
    "header claims 100000x100000": lambda n: _png_declaring(100_000, 100_000),
}

GROWERS: dict[str, dict[str, Callable[[int], Any]]] = {
    "json": JSON_GROWERS,
    "yaml": YAML_GROWERS,
    "query": QUERY_GROWERS,
    "id": ID_GROWERS,
    "image": IMAGE_GROWERS,
}


def grown(kind: str, size: int) -> Iterator[tuple[str, Any]]:
    """Every grower of `kind` at `size` bytes: (label, payload)."""
    for name, grow in GROWERS[kind].items():
        yield f"{name} @{size // 1024} KB", grow(size)


@dataclass
class Search:
    """The offenders of a run: every input over its budget or answered with a server error."""

    offenders: list[Cost] = field(default_factory=list)

    def check(self, cost: Cost) -> Cost:
        if cost.problem():
            self.offenders.append(cost)
        return cost

    def report(self) -> str:
        return "\n".join(f"{cost.problem()}: {cost}" for cost in self.offenders)
