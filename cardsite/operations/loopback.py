"""The site in production mode on loopback, on the database this process is connected to (a
scratch or test database): its environment, its files prepared as `make serve` prepares them,
and a free port. The load test serves the site this way, and so do the tests of `serve`."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection


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


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
