"""One request, measured, in a process of its own (run by the `probe` fixture).

Reads a request from standard input as JSON, sends it through Django's test client against the
database named by DATABASE_URL (the test database, which the calling test has committed to), and
prints one JSON line: the status, the content type, the start of the body, and what the request
alone cost in CPU seconds and in growth of the process's peak memory (ru_maxrss).

A process of its own because the cost is the point: a runaway input must be measurable, and
killable, without taking the test run with it.
"""

import json
import os
import resource
import sys
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


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
    return getattr(client, method)(spec["path"], data=spec.get("data"), **extra)


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
    before_cpu, before_peak = cpu_seconds(), peak_kib()
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
