"""One request, measured, in a process of its own (run by the `probe` fixture).

Reads a request from standard input as JSON, sends it through Django's test client against the
database named by DATABASE_URL (the test database, which the calling test has committed to), and
prints one JSON line: the status, the content type, the start of the body, and what the request
alone cost in CPU seconds and in memory: its peak (VmHWM, reset before it) over what the
process held before it.

A process of its own because the cost is the point: a runaway input must be measurable, and
killable, without taking the test run with it.
"""

import base64
import json
import os
import re
import resource
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.test import Client  # noqa: E402


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _status_kib(field: str) -> int:
    match = re.search(rf"^{field}:\s+(\d+) kB", Path("/proc/self/status").read_text(), re.M)
    assert match is not None, field
    return int(match.group(1))


def start_peak() -> int:
    """Reset the process's high-water mark of memory (Linux: VmHWM) to what it holds now, and
    return that: the peak read afterwards is then the request's own, not the warm-up's."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:  # a kernel without it: the peak since start, a figure that can only be low
        return peak_kib()
    return _status_kib("VmRSS")


def peak_kib() -> int:
    return _status_kib("VmHWM")


def send(client: Client, spec: dict[str, Any]) -> Any:
    method = spec.get("method", "GET").lower()
    extra: dict[str, Any] = {
        f"HTTP_{k.upper().replace('-', '_')}": v for k, v in spec.get("headers", {}).items()
    }
    if "remote_addr" in spec:
        extra["REMOTE_ADDR"] = spec["remote_addr"]
    if "body" in spec:
        return getattr(client, method)(
            spec["path"],
            data=spec["body"],
            content_type=spec.get("content_type", "application/json"),
            **extra,
        )
    data = spec.get("data")
    if "files" in spec:  # sent as multipart: {field: {"name", "content_type", "base64"}}
        data = {**(data or {})}
        for field, upload in spec["files"].items():
            content = base64.b64decode(upload["base64"])
            data[field] = SimpleUploadedFile(upload["name"], content, upload["content_type"])
    return getattr(client, method)(spec["path"], data=data, **extra)


def main() -> None:
    spec = json.loads(sys.stdin.read())
    # As in the test run (pytest-django turns DEBUG off): no query log growing with the request.
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    client = Client(enforce_csrf_checks=False)
    if spec.get("user"):
        client.force_login(User.objects.get(username=spec["user"]))
    # Warm up lazy imports, caches and the connection on a cheap page, so the figures are the
    # request's own.
    for warm in spec.get("warm", ["/"]):
        client.get(warm)
    # Requests that set the scene (earlier attempts a limit counts), sent but not measured.
    for earlier in spec.get("before", []):
        send(client, earlier)
    before_cpu, before_peak = cpu_seconds(), start_peak()
    responses = [send(client, spec) for _ in range(spec.get("repeat", 1))]
    after_cpu, after_peak = cpu_seconds(), peak_kib()
    last = responses[-1]
    body = b"" if getattr(last, "streaming", False) else last.content
    print(
        json.dumps(
            {
                "statuses": [r.status_code for r in responses],
                "status": last.status_code,
                "content_type": last.get("Content-Type", ""),
                "retry_after": last.get("Retry-After"),
                "body": body[:500_000].decode("utf-8", "replace"),
                "cpu_seconds": after_cpu - before_cpu,
                "memory_mb": (after_peak - before_peak) / 1024,
            }
        )
    )


if __name__ == "__main__":
    main()
