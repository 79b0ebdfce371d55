"""`manage.py serve`: the production processes (gunicorn, a task worker) started, checked
and stopped for real, on the test database, with the production settings (DEBUG off)."""

import contextlib
import gzip
import io
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection

from cardsite.operations.loopback import (
    free_port,
    loopback_server_environment,
    prepare_loopback_site,
)
from packs.models import SimulationStatus
from prints.jobs import ProxySelection, proxy_job_start
from prints.sheets import ProxyOptions
from tests.catalog.factories import card_in, png_bytes
from tests.conftest import CORE_SET

# The slow tier (make test-slow, run by CI): each test starts the production server's processes.
pytestmark = pytest.mark.slow

MANAGE = str(Path(django_settings.BASE_DIR) / "manage.py")


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, MANAGE, *args], env=env, capture_output=True, text=True, timeout=120
    )


def _production_python(code: str, **variables: str) -> subprocess.CompletedProcess[str]:
    """Python run with the production settings (DEBUG off) and `variables` on top."""
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "cardsite.settings",
        "DEBUG": "false",
        "SECRET_KEY": "x" * 50,
        "ALLOWED_HOSTS": "cards.example",
        **variables,
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=django_settings.BASE_DIR,
    )


def _wait_until_up(server: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()
        try:
            _get(url)
            return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"the site did not answer:\n{log.read_text()}")


@pytest.fixture
def site(transactional_db: None, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The site in production mode on a free loopback port, on the test database."""
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
    env = loopback_server_environment(tmp_path)
    prepare_loopback_site(env)
    port = free_port()
    log = tmp_path / "serve.log"
    command = [sys.executable, MANAGE, "serve", "--bind", f"127.0.0.1:{port}"]
    command += ["--workers", "2", "--threads", "2", "--task-workers", "1"]
    with log.open("wb") as out:
        # A process group of its own, as a terminal gives it (Ctrl-C signals the whole group).
        server = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        _wait_until_up(server, f"http://127.0.0.1:{port}/", log)
        yield {"url": f"http://127.0.0.1:{port}", "server": server, "log": log, "env": env}
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)


def test_pages_and_compressed_static_files_are_served_with_debug_off(site: dict[str, Any]) -> None:
    status, headers, body = _get(site["url"] + "/cards/?q=t:monster")
    assert status == 200
    assert "Strict-Transport-Security" not in headers  # HTTPS=false on loopback
    # Static files are addressed by a hash of their content, gzip-compressed when asked.
    stylesheet = re.search(rb'href="(/static/catalog/site\.[0-9a-f]{12}\.css)"', body)
    assert stylesheet, body[:500]
    status, headers, compressed = _get(
        site["url"] + stylesheet.group(1).decode(), {"Accept-Encoding": "gzip"}
    )
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert "immutable" in headers["Cache-Control"]
    source = (Path(django_settings.BASE_DIR) / "catalog/static/catalog/site.css").read_bytes()
    assert gzip.decompress(compressed) == source
    # A file under its plain name is found too, without the year-long cache.
    status, headers, _ = _get(site["url"] + "/static/catalog/site.css")
    assert status == 200
    assert "immutable" not in headers.get("Cache-Control", "")


def test_art_is_served_by_the_production_server_from_its_storage(
    site: dict[str, Any], settings: Any, alice: User
) -> None:
    # Written here into the folder the server's storage reads (its MEDIA_ROOT).
    settings.MEDIA_ROOT = site["env"]["MEDIA_ROOT"]
    card = card_in(alice, "public", art=png_bytes())
    status, headers, body = _get(f"{site['url']}/cards/{card.pk}/art")
    assert status == 200
    assert headers["Content-Type"] == "image/png"
    with card.art.open("rb") as stored:  # the upload as drawn again, without its metadata
        assert body == stored.read()


def test_the_task_worker_runs_background_jobs_outside_the_web_processes(
    site: dict[str, Any], settings: Any
) -> None:
    # Enqueued here as the web processes do (TASKS_BACKEND=database): a row, run by db_worker.
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    owner = User.objects.create_user("printer", password="unused-password-1")
    job = proxy_job_start(
        selection=ProxySelection(names=["Net Troll", "Potted Plant"]),
        options=ProxyOptions(),
        actor=owner,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in (SimulationStatus.DONE, SimulationStatus.FAILED):
            break
        time.sleep(0.5)
    assert job.status == SimulationStatus.DONE, (job.error, site["log"].read_text()[-2000:])
    # The worker wrote the PDF to the media storage the web processes read from.
    pdf = Path(site["env"]["MEDIA_ROOT"]) / str(job.pdf.name)
    assert pdf.read_bytes().startswith(b"%PDF-")


def test_sigterm_stops_every_process(site: dict[str, Any]) -> None:
    server: subprocess.Popen[bytes] = site["server"]
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=60) == 0
    with pytest.raises(OSError):
        _get(site["url"] + "/")
    assert "Stopped." in site["log"].read_text()


def test_ctrl_c_stops_every_process_as_asked_not_as_a_crash(site: dict[str, Any]) -> None:
    server: subprocess.Popen[bytes] = site["server"]
    os.killpg(server.pid, signal.SIGINT)  # what a terminal does: gunicorn and workers get it too
    assert server.wait(timeout=60) == 0
    assert "Stopped." in site["log"].read_text()
    assert "stopped by itself" not in site["log"].read_text()


def test_serve_stops_everything_when_a_process_dies(transactional_db: None, tmp_path: Path) -> None:
    env = loopback_server_environment(tmp_path)
    prepare_loopback_site(env)
    # Gunicorn cannot listen on a port that is taken, and exits: serve must not run on without it.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _manage(env, "serve", "--bind", f"127.0.0.1:{port}", "--workers", "1")
    assert result.returncode == 1
    assert "gunicorn stopped by itself" in result.stderr


def test_serve_refuses_to_start_without_collected_static_files(
    transactional_db: None, tmp_path: Path
) -> None:
    env = loopback_server_environment(tmp_path)  # STATIC_ROOT is an empty folder
    result = _manage(env, "serve", "--bind", "127.0.0.1:1")
    assert result.returncode == 1
    assert "collectstatic" in result.stderr


def test_serve_names_every_missing_setup_step_at_once(
    transactional_db: None, tmp_path: Path
) -> None:
    env = loopback_server_environment(tmp_path)  # STATIC_ROOT is an empty folder
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS cardsite_cache")
    result = _manage(env, "serve", "--bind", "127.0.0.1:1")
    assert result.returncode == 1
    assert "createcachetable" in result.stderr
    assert "collectstatic" in result.stderr


def test_serve_refuses_to_start_without_the_shared_cache_table(
    transactional_db: None, tmp_path: Path
) -> None:
    env = loopback_server_environment(tmp_path)  # CACHE=database
    with connection.cursor() as cursor:  # an earlier test's site made it; flushes keep tables
        cursor.execute("DROP TABLE IF EXISTS cardsite_cache")
    assert _manage(env, "collectstatic", "--no-input", "-v", "0").returncode == 0
    result = _manage(env, "serve", "--bind", "127.0.0.1:1")
    assert result.returncode == 1
    assert "createcachetable" in result.stderr


def test_production_settings_send_hsts_and_redirect_to_https() -> None:
    code = (
        "import django\nfrom django.conf import settings\ndjango.setup()\n"
        "print(settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS,"
        " settings.STORAGES['staticfiles']['BACKEND'])\n"
    )
    result = _production_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "True",
        "31536000",
        "whitenoise.storage.CompressedManifestStaticFilesStorage",
    ]


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("MEDIA_STORAGE", "nowhere.Storage", "is not an importable storage"),
        ("MEDIA_STORAGE_OPTIONS", "{bucket", "MEDIA_STORAGE_OPTIONS is not JSON"),
        ("MEDIA_STORAGE_OPTIONS", "[1]", "MEDIA_STORAGE_OPTIONS must be a JSON object"),
        ("HTTPS", "maybe", "HTTPS='maybe' is not a boolean"),
        ("CACHE", "redis", "CACHE='redis' is not one of memory, database"),
    ],
)
def test_bad_storage_or_https_settings_fail_loudly(variable: str, value: str, message: str) -> None:
    result = _production_python("import django; django.setup()", **{variable: value})
    assert result.returncode != 0
    assert message in result.stderr


class SlowClients:
    """Sockets that each send the start of a request and then one more line every `pace`
    seconds, never finishing it: half dribble header lines, half a body they announced.
    Started in a thread of its own; `rounds` counts the lines sent to every socket."""

    def __init__(self, address: tuple[str, int], count: int, pace: float) -> None:
        self.address, self.count, self.pace = address, count, pace
        self.sockets: list[socket.socket] = []
        self.rounds = 0
        self.started = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        for number in range(self.count):
            sock = socket.create_connection(self.address, timeout=10)
            if number % 2:
                start = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            else:
                start = (
                    b"POST /api/validate/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
                )
            sock.sendall(start)
            self.sockets.append(sock)
        self.started.set()
        while not self.stop.wait(self.pace):
            for number, sock in enumerate(self.sockets):
                sock.sendall(b"X-Slow: 1\r\n" if number % 2 else b" ")
            self.rounds += 1

    def all_open(self) -> bool:
        """Whether the server still holds every socket open (none was closed on its side)."""
        for sock in self.sockets:
            sock.setblocking(False)
            try:
                if sock.recv(1, socket.MSG_PEEK) == b"":
                    return False  # closed by the server
            except BlockingIOError:
                pass  # open, nothing said: still waiting for the rest of the request
            finally:
                sock.setblocking(True)
        return True

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=30)
        for sock in self.sockets:
            sock.close()


def test_slow_clients_do_not_keep_others_waiting(site: dict[str, Any]) -> None:
    """Issue 15, item 5: 64 sockets each sending a header line every 2 s held every thread
    of the threaded worker. Here 128 slow sockets (headers or a body, a line a second) are
    open against 2 processes of 2 threads, and meanwhile the home page answers each time."""
    host, port = site["url"].removeprefix("http://").split(":")
    slow = SlowClients((host, int(port)), count=128, pace=1.0)
    slow.thread.start()
    try:
        assert slow.started.wait(timeout=60), "the slow sockets could not all connect"
        began = time.monotonic()
        times: list[float] = []
        # At least 20 answers, over at least 4 s: each slow socket sends several lines meanwhile.
        while len(times) < 20 or time.monotonic() - began < 4:
            asked = time.monotonic()
            status, _, body = _get(site["url"] + "/")
            times.append(time.monotonic() - asked)
            assert status == 200 and b"Munchkin" in body
        rounds = slow.rounds
        assert slow.all_open(), "the server dropped slow sockets instead of waiting for them"
    finally:
        slow.close()
    assert rounds >= 3, rounds  # the slow clients kept dribbling while the pages answered
    assert max(times) < 5.0, times  # generous: alone a page takes a few tens of ms


@contextlib.contextmanager
def _serving(env: dict[str, str], log: Path) -> Iterator[str]:
    """`serve` with one web process in `env`, on a free loopback port: its address."""
    port = free_port()
    command = [sys.executable, MANAGE, "serve", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
    with log.open("wb") as out:
        server = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 90
        while True:  # any answer will do, a redirect to HTTPS included: the server is up
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            try:
                _status(f"http://127.0.0.1:{port}/", {})
                break
            except OSError:
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _status(url: str, headers: dict[str, str]) -> tuple[int, str]:
    """The status and Location of one GET, redirects not followed."""
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=30) as response:
            return response.status, response.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")


@pytest.mark.parametrize("trusted", [False, True])
def test_x_forwarded_proto_is_believed_only_when_the_site_is_told_to(
    transactional_db: None, tmp_path: Path, trusted: bool
) -> None:
    """With HTTPS=true, a plain-HTTP request is redirected to HTTPS. A client claiming HTTPS
    with X-Forwarded-Proto (even from loopback, which gunicorn trusted by default) skips that
    only when TRUST_X_FORWARDED_PROTO says a proxy in front sets the header."""
    env = loopback_server_environment(tmp_path)
    env |= {"HTTPS": "true", "TRUST_X_FORWARDED_PROTO": "true" if trusted else "false"}
    prepare_loopback_site(env)
    with _serving(env, tmp_path / "serve.log") as url:
        plain = _status(url + "/", {})
        claimed = _status(url + "/", {"X-Forwarded-Proto": "https"})
    assert plain[0] == 301 and plain[1].startswith("https://127.0.0.1")
    assert claimed[0] == (200 if trusted else 301), claimed


def _children(pid: int) -> list[tuple[list[str], int]]:
    """The command line and niceness of each process `pid` started (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            # The command's name is in parentheses and may hold spaces: split after it.
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                command = (stat.parent / "cmdline").read_bytes().split(b"\0")
                found.append(([part.decode() for part in command if part], int(fields[16])))
    return found


def test_serve_starts_a_worker_per_queue_the_bulk_one_at_a_lower_priority(
    site: dict[str, Any],
) -> None:
    workers = {
        command[command.index("--queue-name") + 1]: nice
        for command, nice in _children(site["server"].pid)
        if "db_worker" in command
    }
    own = os.nice(0)  # the suite may itself run niced: the workers start from its niceness
    assert workers == {"interactive": own, "default": min(19, own + 10)}
    log = site["log"].read_text()
    assert "1 task worker process(es) of the interactive queue" in log
    assert "1 task worker process(es) of the default queue" in log
