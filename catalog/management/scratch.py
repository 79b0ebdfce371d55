"""A scratch database for benchmarks, made by Django's own test-database machinery: a
temporary SQLite file (or `keep`, reused and kept), or `<name>_<purpose>` on PostgreSQL. The
configured database is never touched."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection


@contextmanager
def scratch_database(keep: Path | None = None, purpose: str = "bench") -> Iterator[Path]:
    """Run the body against a fresh database; yields a scratch folder for files.

    On PostgreSQL the database is `<name>_<purpose>`, never the test suite's own `test_<name>`
    (the load test and the benchmarks also run inside the test suite)."""
    with tempfile.TemporaryDirectory(prefix=f"cardsite-{purpose}-") as scratch:
        if connection.vendor == "sqlite":
            path = keep.resolve() if keep else Path(scratch) / f"{purpose}.sqlite3"
            connection.settings_dict["TEST"]["NAME"] = str(path)
        else:
            name = connection.settings_dict["NAME"]
            connection.settings_dict["TEST"]["NAME"] = f"{name}_{purpose}"
        old_name = connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False, keepdb=keep is not None
        )
        try:
            yield Path(scratch)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=keep is not None)


def connection_url() -> str:
    """The DATABASE_URL of the database this process is connected to now (a scratch or test
    database included), for the server processes a command or test starts on it."""
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{database['NAME']}"
    user = quote(str(database["USER"]), safe="")
    password = quote(str(database["PASSWORD"]), safe="")
    host = database["HOST"] or "127.0.0.1"
    return f"postgres://{user}:{password}@{host}:{database['PORT'] or 5432}/{database['NAME']}"


def loopback_server_environment(folder: Path) -> dict[str, str]:
    """The environment of a production-mode site (`manage.py serve`) on loopback, on the
    database this process is connected to, with its files under `folder`: DEBUG off, static
    files collected and served by WhiteNoise, tasks run by a worker process."""
    return {
        **os.environ,
        "DEBUG": "false",
        "HTTPS": "false",  # plain HTTP on loopback: no redirect, no HSTS, cookies not Secure
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": connection_url(),
        "DATABASE_CONN_MAX_AGE": "60",
        "STATIC_ROOT": str(folder / "static"),
        "MEDIA_ROOT": str(folder / "media"),
        "FACE_CACHE_DIR": str(folder / "faces"),
        "TASKS_BACKEND": "database",
        "CACHE": "database",
        # Load-test clients write as fast as they can: the hourly limit is for people's scripts.
        "API_WRITE_RATE": "1000000/hour",
    }


def prepare_loopback_site(env: dict[str, str]) -> None:
    """What `make serve` does before `serve`, in that environment: the static files collected
    (with their hashed names and gzip copies) and the shared cache's table made."""
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    for command in (["collectstatic", "--no-input"], ["createcachetable"]):
        subprocess.run(
            [sys.executable, manage, *command, "-v", "0"],
            env=env,
            check=True,
            cwd=settings.BASE_DIR,
        )
