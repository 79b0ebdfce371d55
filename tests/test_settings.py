"""settings.py: typed environment variables, and loud failure when production lacks config."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


# Only what a process needs to start: every setting of the site then comes from `env` or from
# the embedded defaults, whatever the environment the suite itself runs in (CI sets
# DATABASE_URL for its PostgreSQL pass).
_BARE = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    bare = {k: v for k, v in os.environ.items() if k in _BARE}
    code = (
        "import django\n"
        "from django.conf import settings\n"
        "django.setup()\n"
        "print(settings.DEBUG, settings.ALLOWED_HOSTS, settings.DATABASES['default']['ENGINE'])\n"
        "print(settings.DATABASES['default']['NAME'])\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**bare, "DJANGO_SETTINGS_MODULE": "cardsite.settings", **env},
    )


def test_embedded_defaults_are_debug_on_sqlite_in_the_project_folder() -> None:
    # README: "SQLite in db.sqlite3, debug mode" when no variable is set.
    result = load_settings()
    assert result.returncode == 0, result.stderr
    first, name = result.stdout.splitlines()
    assert first == "True ['127.0.0.1', 'localhost', '[::1]'] django.db.backends.sqlite3"
    assert Path(name) == REPO / "db.sqlite3"


def test_database_url_chooses_the_database() -> None:
    result = load_settings(DATABASE_URL="sqlite:////tmp/elsewhere.sqlite3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "True ['127.0.0.1', 'localhost', '[::1]'] django.db.backends.sqlite3",
        "/tmp/elsewhere.sqlite3",
    ]
    result = load_settings(DATABASE_URL="postgres://u:p@db.example:5432/cards")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-2:] == ["django.db.backends.postgresql", "cards"]


def test_production_without_a_secret_key_refuses_to_start() -> None:
    result = load_settings(DEBUG="false", ALLOWED_HOSTS="cards.example")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_production_without_allowed_hosts_refuses_to_start() -> None:
    result = load_settings(DEBUG="false", SECRET_KEY="x" * 50)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set" in result.stderr


def test_production_configuration_is_read() -> None:
    result = load_settings(
        DEBUG="no",
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="cards.example, www.cards.example",
        DATABASE_URL="postgres://u:p@db.example:5432/cards",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "False ['cards.example', 'www.cards.example'] django.db.backends.postgresql",
        "cards",
    ]


def test_a_malformed_boolean_is_an_error() -> None:
    result = load_settings(DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_site_url_is_a_scheme_and_a_host() -> None:
    for good in ("https://cards.example.org", "http://127.0.0.1:8000/"):
        assert load_settings(SITE_URL=good).returncode == 0, good
    for bad in ("cards.example.org", "ftp://cards.example.org", "https://example.org/cards"):
        result = load_settings(SITE_URL=bad)
        assert result.returncode != 0, bad
        assert f"SITE_URL={bad!r} is not a site's address" in result.stderr


LIMITS = [
    "LOGIN_FREE_FAILURES",
    "LOGIN_LOCKOUT_MAX_SECONDS",
    "LOGIN_ADDRESS_FAILURES",
    "PROXY_PREVIEW_PER_MINUTE",
    "PROXY_PAPER_MAX_MM",
    "PROXY_PREVIEW_MAX_CARDS",
    "PROXY_PDF_PER_HOUR",
    "PROXY_JOBS_PER_USER",
    "SIMULATIONS_PER_USER",
    "PROXY_JOB_KEEP_HOURS",
    "PACK_BUILDER_MAX_LINES",
    "PACK_API_MAX_ITEMS",
]


def test_the_abuse_limits_are_read_from_the_environment_and_checked() -> None:
    env = {name: str(11 + index) for index, name in enumerate(LIMITS)}
    code = (
        "import django\n"
        "from django.conf import settings\n"
        "django.setup()\n"
        f"print([getattr(settings, name) for name in {LIMITS!r}])\n"
        "print(settings.NUM_PROXIES, settings.REST_FRAMEWORK['NUM_PROXIES'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "cardsite.settings",
            "NUM_PROXIES": "1",
            **env,
        },
    )
    assert result.returncode == 0, result.stderr
    values, proxies = result.stdout.splitlines()
    assert values == str([11 + index for index in range(len(LIMITS))])
    assert proxies == "1 1"  # the API's throttles count the same address
    for bad in ("0", "-3"):
        refused = load_settings(PROXY_JOBS_PER_USER=bad)
        assert refused.returncode != 0
        assert f"PROXY_JOBS_PER_USER={bad} must be at least 1" in refused.stderr
    refused = load_settings(LOGIN_FREE_FAILURES="five")
    assert refused.returncode != 0 and "is not a whole number" in refused.stderr
