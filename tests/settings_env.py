"""The settings file run under a chosen environment, for the tests of settings and security."""

import os
import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from django.core.exceptions import ImproperlyConfigured

REPO = Path(__file__).resolve().parent.parent
SETTINGS = REPO / "cardsite" / "settings.py"


# Only what a process needs to start: every setting of the site then comes from `env` or from
# the embedded defaults, whatever the environment the suite itself runs in (CI sets
# DATABASE_URL for its PostgreSQL pass).
_BARE = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


@dataclass(frozen=True)
class Loaded:
    """What the settings file gave under an environment: its names, or the error it raised."""

    values: dict[str, Any]
    error: str = ""

    @property
    def refused(self) -> bool:
        return bool(self.error)

    @property
    def summary(self) -> list[str]:
        database = self.values["DATABASES"]["default"]
        return [
            f"{self.values['DEBUG']} {self.values['ALLOWED_HOSTS']} {database['ENGINE']}",
            str(database["NAME"]),
        ]


def load_settings(**env: str) -> Loaded:
    """Run the real settings file under exactly `env` (plus the bare minimum of a process).

    In this process rather than a child: the file only reads the environment, and a child per
    case cost a second each of Django start-up. The suite's own settings are untouched: the
    file's names land in a dict, and the environment is given back afterwards.
    """
    bare = {k: v for k, v in os.environ.items() if k in _BARE}
    with mock.patch.dict(os.environ, {**bare, **env}, clear=True):
        try:
            return Loaded(values=runpy.run_path(str(SETTINGS)))
        except ImproperlyConfigured as refusal:
            return Loaded(values={}, error=str(refusal))
