"""settings.py: typed environment variables, and loud failure when production lacks config."""

from pathlib import Path

from tests.settings_env import load_settings

REPO = Path(__file__).resolve().parent.parent


def test_embedded_defaults_are_debug_on_sqlite_in_the_project_folder() -> None:
    # README: "SQLite in db.sqlite3, debug mode" when no variable is set.
    result = load_settings()
    assert not result.refused, result.error
    first, name = result.summary
    assert first == "True ['127.0.0.1', 'localhost', '[::1]'] django.db.backends.sqlite3"
    assert Path(name) == REPO / "db.sqlite3"


def test_database_url_chooses_the_database() -> None:
    result = load_settings(DATABASE_URL="sqlite:////tmp/elsewhere.sqlite3")
    assert not result.refused, result.error
    assert result.summary == [
        "True ['127.0.0.1', 'localhost', '[::1]'] django.db.backends.sqlite3",
        "/tmp/elsewhere.sqlite3",
    ]
    result = load_settings(DATABASE_URL="postgres://u:p@db.example:5432/cards")
    assert not result.refused, result.error
    assert result.summary[0].endswith("django.db.backends.postgresql")
    assert result.summary[1] == "cards"


def test_production_without_a_secret_key_refuses_to_start() -> None:
    result = load_settings(DEBUG="false", ALLOWED_HOSTS="cards.example")
    assert "SECRET_KEY must be set when DEBUG is off" in result.error


def test_production_without_allowed_hosts_refuses_to_start() -> None:
    result = load_settings(DEBUG="false", SECRET_KEY="x" * 50)
    assert "ALLOWED_HOSTS must be set" in result.error


def test_production_configuration_is_read() -> None:
    result = load_settings(
        DEBUG="no",
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="cards.example, www.cards.example",
        DATABASE_URL="postgres://u:p@db.example:5432/cards",
    )
    assert not result.refused, result.error
    assert result.summary == [
        "False ['cards.example', 'www.cards.example'] django.db.backends.postgresql",
        "cards",
    ]


def test_a_malformed_boolean_is_an_error() -> None:
    result = load_settings(DEBUG="maybe")
    assert "DEBUG='maybe' is not a boolean" in result.error


def test_site_url_is_a_scheme_and_a_host() -> None:
    for good in ("https://cards.example.org", "http://127.0.0.1:8000/"):
        assert not load_settings(SITE_URL=good).refused, good
    for bad in ("cards.example.org", "ftp://cards.example.org", "https://example.org/cards"):
        result = load_settings(SITE_URL=bad)
        assert f"SITE_URL={bad!r} is not a site's address" in result.error, bad


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
    "SIGNUPS_PER_HOUR",
    "SIMULATIONS_PER_ADDRESS",
    "PROXY_JOBS_PER_ADDRESS",
    "TTS_EXPORTS_PER_ADDRESS",
]


def test_the_abuse_limits_are_read_from_the_environment_and_checked() -> None:
    env = {name: str(11 + index) for index, name in enumerate(LIMITS)}
    result = load_settings(NUM_PROXIES="1", **env)
    assert not result.refused, result.error
    assert [result.values[name] for name in LIMITS] == [11 + i for i in range(len(LIMITS))]
    # the API's throttles count the same address
    assert result.values["NUM_PROXIES"] == result.values["REST_FRAMEWORK"]["NUM_PROXIES"] == 1
    for bad in ("0", "-3"):
        refused = load_settings(PROXY_JOBS_PER_USER=bad)
        assert f"PROXY_JOBS_PER_USER={bad} must be at least 1" in refused.error
    refused = load_settings(LOGIN_FREE_FAILURES="five")
    assert "is not a whole number" in refused.error


def test_every_task_backend_lists_both_queues_and_the_thread_pools_are_read() -> None:
    for backend in ("thread", "database", "immediate"):
        tasks = load_settings(TASKS_BACKEND=backend).values["TASKS"]["default"]
        assert tasks["QUEUES"] == ["interactive", "default"]
    loaded = load_settings(TASKS_THREADS="3", TASKS_INTERACTIVE_THREADS="2", TASKS_BULK_NICE="5")
    assert loaded.values["TASKS"]["default"]["OPTIONS"] == {
        "max_workers": 3,
        "queue_workers": {"interactive": 2},
    }
    assert loaded.values["TASKS_BULK_NICE"] == 5
    assert load_settings().values["TASKS_BULK_NICE"] == 10
    refused = load_settings(TASKS_INTERACTIVE_THREADS="0")
    assert "TASKS_INTERACTIVE_THREADS=0 must be at least 1" in refused.error
    for bad in ("-1", "20"):
        refused = load_settings(TASKS_BULK_NICE=bad)
        assert f"TASKS_BULK_NICE={bad} must be between 0 and 19" in refused.error
