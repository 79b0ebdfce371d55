"""A scratch database for benchmarks, made by Django's own test-database machinery: a
temporary SQLite file (or `keep`, reused and kept), or `<name>_<purpose>` on PostgreSQL. The
configured database is never touched."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection


@contextmanager
def scratch_database(
    keep: Path | None = None, purpose: str = "bench", *, keep_database: bool = False
) -> Iterator[Path]:
    """Run the body against a fresh database; yields a scratch folder for files.

    On PostgreSQL the database is `<name>_<purpose>`, never the test suite's own `test_<name>`
    (the load test and the benchmarks also run inside the test suite). With `keep` (SQLite) or
    `keep_database` (either), the database is reused when it exists and kept afterwards."""
    keep_database = keep_database or keep is not None
    with tempfile.TemporaryDirectory(prefix=f"cardsite-{purpose}-") as scratch:
        if connection.vendor == "sqlite":
            path = keep.resolve() if keep else Path(scratch) / f"{purpose}.sqlite3"
            connection.settings_dict["TEST"]["NAME"] = str(path)
        else:
            name = connection.settings_dict["NAME"]
            connection.settings_dict["TEST"]["NAME"] = f"{name}_{purpose}"
        old_name = connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False, keepdb=keep_database
        )
        try:
            yield Path(scratch)
        finally:
            if connection.vendor == "postgresql" and not keep_database:
                _end_other_sessions()
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=keep_database)


def _end_other_sessions() -> None:
    """End every other session on the scratch database: a background task the run started (the
    bulk data files, a card's check) may still hold a connection to it, and PostgreSQL refuses
    to drop a database someone is connected to. The scratch database is this run's alone."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
