"""Serve the site as it runs in production: gunicorn's web processes and the task workers.

`manage.py serve` starts gunicorn (settings in `cardsite/gunicorn_conf.py`) and, when
TASKS_BACKEND=database, `db_worker` processes that run the background tasks off the web
processes: for each queue (accounts/queues.py) workers of its own, those of the bulk queue
(pack simulations, exports, proxy PDFs, bulk data) at a lower CPU priority
(`TASKS_BULK_NICE`), so a saved card's validation and face never wait for a worker, nor much
for a core, behind a flood of simulations. It watches them: when one stops by itself the
others are stopped too and the command fails, so a process manager (systemd, a container
platform) sees one unit that is either whole or restarted. SIGTERM or Ctrl-C stops everything
cleanly. Each piece can also be started on its own, on other machines: see the
README's "Beyond one machine".
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import cast

from django.conf import settings
from django.core.management.base import OutputWrapper
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.queues import BULK_QUEUE, INTERACTIVE_QUEUE
from cardsite.operations import OperationError

DATABASE_BACKEND = "django_tasks_db.DatabaseBackend"
GUNICORN_CONF = Path(settings.BASE_DIR) / "cardsite" / "gunicorn_conf.py"
STOP_WAIT_SECONDS = 35  # gunicorn's graceful timeout (30 s) and a margin

Children = list[tuple[str, subprocess.Popen[bytes]]]


def serve(
    *,
    bind: str,
    workers: int | None,
    threads: int | None,
    task_workers: int,
    interactive_workers: int = 1,
    stdout: OutputWrapper,
) -> None:
    """Serve the site on `bind` (host:port) with gunicorn and, under TASKS_BACKEND=database,
    `task_workers` worker processes of the bulk queue and `interactive_workers` of the
    interactive queue beside it, until SIGTERM or Ctrl-C; then stop them
    all and write "Stopped.". `workers` (gunicorn's processes) and `threads` (each process's
    threads for requests' code, WEB_THREADS) override the configuration when given. A site
    not ready to serve (migrations pending, no cache table, no collected static files) is
    refused; a process that stops by itself stops the others and raises."""
    _refuse_unready_site()
    children = _start(
        bind=bind,
        workers=workers,
        threads=threads,
        task_workers=task_workers,
        interactive_workers=interactive_workers,
        stdout=stdout,
    )
    stopping: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while not stopping:
            ended = [(name, p) for name, p in children if p.poll() is not None]
            if ended:
                # Ctrl-C reaches the children too and they may be gone before our own
                # handler has run: that is a stop asked for, not a crash.
                time.sleep(0.5)
                if stopping:
                    break
                name, process = ended[0]
                raise OperationError(
                    f"{name} stopped by itself (exit {process.returncode}); "
                    "the other processes were stopped too"
                )
            time.sleep(0.3)
    finally:
        _stop(children)
    stdout.write("Stopped.")


def _refuse_unready_site() -> None:
    """Refuse to start when a setup step was skipped, naming every missing step at once."""
    executor = MigrationExecutor(connection)
    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    tables = set(connection.introspection.table_names())
    connection.close()  # the children open their own; none is kept across the fork
    missing: list[str] = []
    if pending:
        missing.append(
            f"{len(pending)} migrations are not applied: run `python manage.py migrate` first"
        )
    cache = cast(dict[str, str], settings.CACHES["default"])
    if cache["BACKEND"].endswith("DatabaseCache") and cache["LOCATION"] not in tables:
        missing.append(
            f"the cache table {cache['LOCATION']} is missing (CACHE=database): "
            "run `python manage.py createcachetable` first"
        )
    storage = settings.STORAGES["staticfiles"]["BACKEND"]
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if "Manifest" in storage and not manifest.exists():
        missing.append(
            f"no collected static files in {settings.STATIC_ROOT}: "
            "run `python manage.py collectstatic --no-input` first"
        )
    if missing:
        raise OperationError("; ".join(missing))


def _start(
    *,
    bind: str,
    workers: int | None,
    threads: int | None,
    task_workers: int,
    interactive_workers: int,
    stdout: OutputWrapper,
) -> Children:
    gunicorn = [sys.executable, "-m", "gunicorn", "cardsite.asgi:application"]
    gunicorn += ["--config", str(GUNICORN_CONF), "--bind", bind]
    if workers:
        gunicorn += ["--workers", str(workers)]
    # The threads of each web process are the application's own (cardsite/asgi.py).
    web_env = {**os.environ, **({"WEB_THREADS": str(threads)} if threads else {})}
    backend = settings.TASKS["default"]["BACKEND"]
    if backend != DATABASE_BACKEND:
        task_workers = interactive_workers = 0

    children = [("gunicorn", subprocess.Popen(gunicorn, cwd=settings.BASE_DIR, env=web_env))]
    children += [
        (f"interactive task worker {n + 1}", _worker(INTERACTIVE_QUEUE, nice=0))
        for n in range(interactive_workers)
    ]
    children += [
        (f"task worker {n + 1}", _worker(BULK_QUEUE, nice=settings.TASKS_BULK_NICE))
        for n in range(task_workers)
    ]
    if backend != DATABASE_BACKEND:
        where = "background tasks inside the web processes (TASKS_BACKEND=database moves them)"
    else:
        where = (
            f"{_workers_text(interactive_workers, INTERACTIVE_QUEUE)}, "
            f"{_workers_text(task_workers, BULK_QUEUE)}"
        )
    stdout.write(
        f"Serving on http://{bind}/ with gunicorn; {where}; "
        f"media on {settings.STORAGES['default']['BACKEND']}. Ctrl-C stops."
    )
    return children


def worker_command(queue_name: str) -> list[str]:
    """The command of a task worker of one queue, as `serve` starts it."""
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    return [
        *(sys.executable, manage, "db_worker", "--no-reload", "--interval", "0.5"),
        *("--queue-name", queue_name),
    ]


def _worker(queue_name: str, *, nice: int) -> subprocess.Popen[bytes]:
    # os.nice in the child before it starts: the worker and the processes a simulation forks
    # run at that lower priority; the kernel gives cores to the others first.
    return subprocess.Popen(
        worker_command(queue_name),
        cwd=settings.BASE_DIR,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
    )


def _workers_text(count: int, queue_name: str) -> str:
    if count:
        return f"{count} task worker process(es) of the {queue_name} queue"
    return (
        f"no task worker of the {queue_name} queue here: run "
        f"`python manage.py db_worker --queue-name {queue_name}` elsewhere"
    )


def _stop(children: Children) -> None:
    for _, process in children:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT_SECONDS
    for _, process in children:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
