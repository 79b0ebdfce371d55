"""cardsite/asgi.py's WsgiThreads, in one event loop with a stand-in WSGI application:
requests run in a fixed set of threads (so the database connections, one per thread, are
bounded too), a request takes a thread only with its whole body and gives it back before its
answer is written, and the application sees the environ a WSGI server would give it."""

import asyncio
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cardsite.asgi import WsgiThreads


def run_loop[T](main: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine in an event loop of its own, on a thread of its own: the browser tests'
    Playwright keeps a loop running on the main thread for the whole session."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main).result()


Message = Mapping[str, Any]


class Answer:
    """A WSGI answer that says when it is closed (Django then ends the request)."""

    def __init__(self, chunks: list[bytes], closed: list[int]) -> None:
        self.chunks, self.closed = chunks, closed

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.chunks)

    def close(self) -> None:
        self.closed.append(threading.get_ident())


class Site:
    """A WSGI application that holds its thread a while and answers with the body it read."""

    def __init__(self, seconds: float = 0.05) -> None:
        self.seconds = seconds
        self.threads: set[int] = set()
        self.closed: list[int] = []
        self.environs: list[dict[str, Any]] = []
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Answer:
        with self.lock:
            self.threads.add(threading.get_ident())
            self.environs.append(environ)
            self.running += 1
            self.most = max(self.most, self.running)
        body = environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))
        threading.Event().wait(self.seconds)  # the request's own work, holding its thread
        with self.lock:
            self.running -= 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return Answer([b"got ", body], self.closed)


class Client:
    """One request: its body in `chunks`, sent one by one (each after `pause` seconds)."""

    def __init__(self, chunks: list[bytes], pause: float = 0.0) -> None:
        self.chunks, self.pause = chunks, pause
        self.sent: list[Message] = []

    async def receive(self) -> Message:
        if not self.chunks:
            await asyncio.Event().wait()  # no disconnect: wait for ever
        await asyncio.sleep(self.pause)
        chunk = self.chunks.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(self.chunks)}

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


async def serve(app: WsgiThreads, client: Client, scope: dict[str, Any] | None = None) -> None:
    request = {"type": "http", "method": "POST", "path": "/", "headers": [], **(scope or {})}
    await app(request, client.receive, client.send)


def test_requests_run_in_at_most_the_given_threads_and_are_closed_there() -> None:
    site = Site()
    app = WsgiThreads(site, threads=3, max_body=1000)

    async def main() -> list[Client]:
        clients = [Client([f"request {n}".encode()]) for n in range(40)]
        await asyncio.gather(*(serve(app, client) for client in clients))
        return clients

    clients = run_loop(main())
    assert [c.body for c in clients] == [f"got request {n}".encode() for n in range(40)]
    assert site.most == 3  # 40 requests at once, never more than 3 running
    assert len(site.threads) == 3  # the same three threads, request after request
    assert len(site.closed) == 40 and set(site.closed) == site.threads  # closed in its thread


def test_a_slow_body_holds_no_thread() -> None:
    app = WsgiThreads(Site(), threads=1, max_body=1000)

    async def main() -> tuple[Client, list[Client]]:
        slow = Client([b"a"] * 25, pause=0.1)  # two and a half seconds to send its body
        slow_task = asyncio.create_task(serve(app, slow))
        quick = [Client([b"quick"]) for _ in range(10)]
        await asyncio.wait_for(asyncio.gather(*(serve(app, c) for c in quick)), timeout=2)
        assert not slow.sent  # still sending while the others were answered
        await slow_task
        return slow, quick

    slow, quick = run_loop(main())
    assert all(c.status == 200 for c in quick) and slow.body == b"got " + b"a" * 25


def test_a_body_over_the_limit_is_refused_before_any_thread() -> None:
    site = Site()
    client = Client([b"12345", b"67890", b"x"])
    run_loop(serve(WsgiThreads(site, threads=1, max_body=10), client))
    assert client.status == 413 and b"10 bytes" in client.body
    assert not site.threads


def test_the_thread_is_free_before_the_answer_is_written() -> None:
    app = WsgiThreads(Site(), threads=1, max_body=1000)

    async def main() -> tuple[Client, bool]:
        release = asyncio.Event()
        stalled = Client([b"first"])
        original = stalled.send

        async def slow_reader(message: Message) -> None:
            await release.wait()  # a client that does not read its answer
            await original(message)

        stalled.send = slow_reader  # type: ignore[method-assign]
        stalled_task = asyncio.create_task(serve(app, stalled))
        other = Client([b"second"])
        await asyncio.wait_for(serve(app, other), timeout=4)  # the one thread was free
        unread = not stalled.sent
        release.set()
        await stalled_task
        return other, unread

    other, unread = run_loop(main())
    assert other.body == b"got second" and unread


def test_the_environ_is_what_a_wsgi_server_gives() -> None:
    site = Site(seconds=0)
    client = Client([b"a=1", b"&b=2"])  # sent in two parts, as a chunked body is
    headers = [
        (b"host", b"cards.example"),
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"cookie", b"sessionid=abc"),
        (b"cookie", b"csrftoken=def"),
        (b"x-thing", b"caf\xc3\xa9"),
    ]
    scope = {
        "path": "/sets/caf\u00e9/",
        "query_string": b"q=t%3Amonster",
        "headers": headers,
        "scheme": "https",
        "server": ("127.0.0.1", 8000),
        "client": ("10.0.0.9", 5555),
    }
    run_loop(serve(WsgiThreads(site, threads=1, max_body=100), client, scope))
    [environ] = site.environs
    assert client.body == b"got a=1&b=2"
    assert environ["PATH_INFO"] == "/sets/caf\u00c3\u00a9/"  # UTF-8 bytes, as latin-1 text
    assert environ["QUERY_STRING"] == "q=t%3Amonster"
    assert environ["CONTENT_LENGTH"] == "7" and environ["CONTENT_TYPE"].endswith("urlencoded")
    assert environ["HTTP_HOST"] == "cards.example"
    assert environ["HTTP_COOKIE"] == "sessionid=abc; csrftoken=def"
    assert environ["HTTP_X_THING"] == "caf\u00c3\u00a9"
    assert environ["wsgi.url_scheme"] == "https"
    assert (environ["REMOTE_ADDR"], environ["SERVER_PORT"]) == ("10.0.0.9", "8000")
