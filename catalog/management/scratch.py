"""A scratch database for benchmarks, made by Django's own test-database machinery: a
temporary SQLite file (or `keep`, reused and kept), or `test_<name>` on PostgreSQL. The
configured database is never touched."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection


@contextmanager
def scratch_database(keep: Path | None = None) -> Iterator[Path]:
    """Run the body against a fresh database; yields a scratch folder for files."""
    with tempfile.TemporaryDirectory(prefix="cardsite-bench-") as scratch:
        if connection.vendor == "sqlite":
            path = keep.resolve() if keep else Path(scratch) / "bench.sqlite3"
            connection.settings_dict["TEST"]["NAME"] = str(path)
        old_name = connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False, keepdb=keep is not None
        )
        try:
            yield Path(scratch)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=keep is not None)
