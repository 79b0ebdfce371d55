"""The site as an ASGI application: what `manage.py serve` runs, under gunicorn's asgi worker.

Why ASGI: a connection waits on the event loop, not in a thread, so a client that sends its
headers or its body slowly, or reads its answer slowly, costs a coroutine and a socket, and
the other requests go on (issue 15, item 5: under the threaded worker, 64 sockets sending a
header line every 2 s held every thread).

The site itself is synchronous (Django's middleware, views, the ORM), so each request runs
Django's WSGI handler once, whole, in a thread (`WsgiThreads`): each web process has
WEB_THREADS of them, reused from request to request. A request is given one only when its
whole body has arrived, and gives it back as soon as its answer is made, before the client
has read it. The threads, and so the database connections (one per thread, kept for
DATABASE_CONN_MAX_AGE), stay bounded per process whatever the number of clients; requests
beyond them wait for a thread on the event loop.

(Django's own ASGI handler would do the same work with a hop between the loop and a thread
for each step of each synchronous middleware, some twenty per request here: in alternating
load tests on a busy 2-core machine it made 0.73 to 1.06 times the requests a second of the
threaded worker; this way makes the same as the threaded worker.)
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile
from typing import IO, Any

from django.core.wsgi import get_wsgi_application

Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
StartResponse = Callable[..., Callable[[bytes], None]]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# A request body is read whole before the request is given a thread: up to this much in
# memory, then in a temporary file, and past `max_body` refused with a 413 (the largest the
# site takes is a 2 MB upload or import, sent as a form).
BODY_IN_MEMORY = 256 * 1024


class WsgiThreads:
    """ASGI application that runs a WSGI application for each HTTP request in one of
    `threads` threads of this process, once the request's body (at most `max_body` bytes)
    has been read whole; the answer is made whole in the thread and written from the loop."""

    def __init__(self, app: WsgiApp, *, threads: int, max_body: int) -> None:
        self.app = app
        self.threads = threads
        self.max_body = max_body
        self._free: asyncio.Queue[ThreadPoolExecutor] | None = None

    def _pool(self) -> asyncio.Queue[ThreadPoolExecutor]:
        # Made on first use, inside a worker process's event loop (the application object is
        # made before gunicorn forks its workers).
        if self._free is None:
            self._free = asyncio.Queue()
            for number in range(self.threads):
                self._free.put_nowait(
                    ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"request-{number}")
                )
        return self._free

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"the site serves HTTP only, not {scope['type']!r}")
        with SpooledTemporaryFile(max_size=BODY_IN_MEMORY) as body:
            size = await self._read_body(receive, body)
            if size is None:
                return  # the client left before it had sent its request
            if size > self.max_body:
                await _answer(send, 413, f"The request body is over {self.max_body:,} bytes.")
                return
            body.seek(0)
            environ = wsgi_environ(scope, body, size)
            free = self._pool()
            executor = await free.get()
            try:
                loop = asyncio.get_running_loop()
                status, headers, content = await loop.run_in_executor(
                    executor, _run, self.app, environ
                )
            finally:
                free.put_nowait(executor)
        try:
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})
        except OSError:
            pass  # the client left; nothing more to say to it

    async def _read_body(self, receive: Receive, body: IO[bytes]) -> int | None:
        """The body's size once read (past `max_body`: as soon as it is over), None when the
        client disconnected first."""
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return size
            body.write(chunk)
            if not message.get("more_body", False):
                return size


def wsgi_environ(scope: Mapping[str, Any], body: IO[bytes], size: int) -> dict[str, Any]:
    """The WSGI environ of an ASGI HTTP request whose whole body is in `body` (PEP 3333: text
    values are str holding bytes as latin-1)."""
    root = str(scope.get("root_path", ""))
    path = str(scope["path"])
    if root and path.startswith(root):
        path = path[len(root) :]
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": bytes(scope.get("query_string", b"")).decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        # The body is all here, whatever framing the client used (chunked included).
        "CONTENT_LENGTH": str(size),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"] = str(client[0])
        environ["REMOTE_PORT"] = str(client[1])
    values: dict[str, list[str]] = defaultdict(list)
    for raw_name, raw_value in scope.get("headers", []):
        name = bytes(raw_name).decode("latin-1").upper().replace("-", "_")
        if name == "CONTENT_LENGTH":
            continue  # the body's real size, above
        key = name if name == "CONTENT_TYPE" else f"HTTP_{name}"
        values[key].append(bytes(raw_value).decode("latin-1"))
    for key, found in values.items():
        environ[key] = ("; " if key == "HTTP_COOKIE" else ",").join(found)
    return environ


def _run(app: WsgiApp, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """In a request thread: the WSGI application's whole answer, its iterable closed (Django
    then sends request_finished, which looks after the thread's database connection)."""
    started: list[tuple[str, list[tuple[str, str]]]] = []

    def start_response(
        status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], None]:
        started[:] = [(status, headers)]
        return written.append

    written: list[bytes] = []
    result = app(environ, start_response)
    try:
        written.extend(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    status, headers = started[0]
    encoded = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers]
    return int(status.split(" ", 1)[0]), encoded, b"".join(written)


async def _answer(send: Send, status: int, text: str) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

application = WsgiThreads(
    get_wsgi_application(),
    threads=int(os.environ.get("WEB_THREADS", "4")),
    max_body=int(os.environ.get("WEB_MAX_BODY_BYTES", str(8 * 1024 * 1024))),
)
