"""Many requests, each measured, in one process that stays up (run by tests/abuse/cost.py).

The cost fuzzer's child: tests/abuse/probe.py answers one request and exits, which costs a
Django start-up per input; this one reads one JSON request per line on standard input and
prints one JSON line per request, so a search can send hundreds. Each request is measured as
probe.py measures it: CPU seconds of the process (every thread) and the peak of its memory
(VmHWM reset just before it) over what it held before it.

Before each request, and not measured: garbage is collected (earlier requests' garbage is
theirs), the rate-limit counters are emptied (the suite's `fresh_rate_limits` does the same per
test; a fuzzer that sends hundreds of requests from one address would otherwise measure the
429s), and the user named by the request is logged in.

A request is the probe's (method, path, body + content_type, or data, user, headers) plus
`files`: {field: {"name": ..., "content_type": ..., "base64": ...}}, sent as multipart.
"""

import base64
import gc
import json
import os
import re
import sys
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.db import close_old_connections  # noqa: E402
from django.test import Client  # noqa: E402

from tests.abuse.probe import cpu_seconds, peak_kib, start_peak  # noqa: E402

_BODY_KEPT = 2_000
# On an HTML page, what is worth reading: its title and the errors it names.
_PAGE_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_PAGE_ERRORS = re.compile(r'<(\w+)[^>]*class="[^"]*error[^"]*"[^>]*>(.*?)</\1>', re.S)
_TAGS = re.compile(r"<[^>]+>")


def _readable(body: bytes, content_type: str) -> str:
    text = body[:500_000].decode("utf-8", "replace")
    if not content_type.startswith("text/html"):
        return text[:_BODY_KEPT]
    title = _PAGE_TITLE.search(text)
    errors = [" ".join(_TAGS.sub(" ", m.group(2)).split()) for m in _PAGE_ERRORS.finditer(text)]
    parts = [f"page {title.group(1).strip()!r}" if title else "page"] + [e for e in errors if e]
    return " | ".join(parts)[:_BODY_KEPT]


def _client(spec: dict[str, Any]) -> Client:
    # A server error is an answer to measure (status 500), not an exception to die of.
    client = Client(enforce_csrf_checks=False, raise_request_exception=False)
    if spec.get("user"):
        client.force_login(User.objects.get(username=spec["user"]))
    return client


def _send(client: Client, spec: dict[str, Any]) -> Any:
    method = spec.get("method", "GET").lower()
    extra: dict[str, Any] = {
        f"HTTP_{k.upper().replace('-', '_')}": v for k, v in spec.get("headers", {}).items()
    }
    if "body" in spec:
        content_type = spec.get("content_type", "application/json")
        return getattr(client, method)(
            spec["path"], data=spec["body"], content_type=content_type, **extra
        )
    data = dict(spec.get("data") or {})
    for field, upload in spec.get("files", {}).items():
        content = base64.b64decode(upload["base64"])
        data[field] = SimpleUploadedFile(upload["name"], content, upload["content_type"])
    return getattr(client, method)(spec["path"], data=data, **extra)


def answer(spec: dict[str, Any]) -> dict[str, Any]:
    close_old_connections()  # another process (the test) may have emptied the tables meanwhile
    cache.clear()
    gc.collect()  # the garbage of earlier requests is theirs, not this one's
    client = _client(spec)
    started = time.monotonic()
    before_cpu, before_peak = cpu_seconds(), start_peak()
    response = _send(client, spec)
    after_cpu, after_peak = cpu_seconds(), peak_kib()
    wall = time.monotonic() - started
    body = b"" if getattr(response, "streaming", False) else response.content
    return {
        "status": response.status_code,
        "content_type": response.get("Content-Type", ""),
        "body": _readable(body, response.get("Content-Type", "")),
        "body_bytes": len(body),
        "cpu_seconds": after_cpu - before_cpu,
        "memory_mb": (after_peak - before_peak) / 1024,
        "wall_seconds": wall,
    }


def main() -> None:
    # As in the test run (pytest-django turns DEBUG off): no query log growing with the requests.
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
