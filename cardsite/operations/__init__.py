"""The site's operations, run by `cardsite`'s commands: serving it as in production
(`serve.py`), the load test (`loadtest.py`, its clients in `load_clients.py`, the site on
loopback in `loopback.py`) and backing up and restoring its data (`backup.py`, `restore.py`).

They are the top layer: they may use every app below. Each command parses its arguments and
calls one function here; an operation that refuses or fails raises `OperationError`, whose
message the command reports as it is.
"""


class OperationError(Exception):
    """An operation refused to run or failed; the message says why (and what to do)."""
