"""The site's own task backend (cardsite/tasks_backends.py): tasks run on its threads, a
deferred one not before its `run_after`, each queue on a pool of its own."""

import threading
import time
from datetime import timedelta

import pytest
from django.tasks import TaskResultStatus, task, task_backends
from django.test import override_settings
from django.utils import timezone

from accounts.queues import INTERACTIVE_QUEUE, QUEUES, interactive
from cardsite.tasks_backends import ThreadBackend

THREAD = {"default": {"BACKEND": "cardsite.tasks_backends.ThreadBackend"}}

_ran_at: list[float] = []
_done = threading.Event()


@task()
def note_the_time() -> None:
    _ran_at.append(time.time())
    _done.set()


def _wait_for(result_id: str) -> TaskResultStatus:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        status = task_backends["default"].get_result(result_id).status
        if status in (TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED):
            return status
        time.sleep(0.02)
    raise AssertionError("the task never finished")


@override_settings(TASKS=THREAD)
def test_a_deferred_task_waits_for_its_time() -> None:
    _ran_at.clear()
    _done.clear()
    asked = time.time()
    result = note_the_time.using(run_after=timezone.now() + timedelta(seconds=0.5)).enqueue()
    time.sleep(0.2)
    assert not _done.is_set()  # not yet: it waits on its timer, not on the pool
    assert task_backends["default"].get_result(result.id).status == TaskResultStatus.READY
    assert _wait_for(result.id) == TaskResultStatus.SUCCESSFUL
    assert _ran_at[0] - asked >= 0.5


@override_settings(TASKS=THREAD)
def test_a_task_without_a_time_runs_at_once() -> None:
    _ran_at.clear()
    asked = time.time()
    result = note_the_time.enqueue()
    assert _wait_for(result.id) == TaskResultStatus.SUCCESSFUL
    assert _ran_at[0] - asked < 0.5


# -- a pool per queue (accounts/queues.py) ----------------------------------------------------

THREAD_QUEUES = {
    "default": {
        "BACKEND": "cardsite.tasks_backends.ThreadBackend",
        "QUEUES": QUEUES,
        "OPTIONS": {"max_workers": 2, "queue_workers": {INTERACTIVE_QUEUE: 1}},
    }
}
_release = threading.Event()


@task()
def hold_a_thread() -> None:
    """Bulk work that keeps its thread until the test lets it go."""
    _release.wait(timeout=30)


def _status(result_id: str) -> TaskResultStatus:
    return task_backends["default"].get_result(result_id).status


@override_settings(TASKS=THREAD_QUEUES)
def test_interactive_work_runs_at_once_while_bulk_work_fills_its_pool() -> None:
    _ran_at.clear()
    _release.clear()
    # Both bulk threads held, two more bulk tasks waiting behind them.
    held = [hold_a_thread.enqueue() for _ in range(4)]
    try:
        asked = time.time()
        result = interactive(note_the_time, cards=1).enqueue()
        assert result.task.queue_name == INTERACTIVE_QUEUE
        assert _wait_for(result.id) == TaskResultStatus.SUCCESSFUL
        assert _ran_at[0] - asked < 1.0
        # The bulk work is all still there: the interactive task took none of its threads.
        statuses = [_status(h.id) for h in held]
        assert statuses.count(TaskResultStatus.RUNNING) == 2
        assert statuses.count(TaskResultStatus.READY) == 2
        # ...and a bulk task on the full pool waits, as it should.
        behind = note_the_time.enqueue()
        time.sleep(0.3)
        assert _status(behind.id) == TaskResultStatus.READY
    finally:
        _release.set()
    for result_id in [h.id for h in held] + [behind.id]:
        assert _wait_for(result_id) == TaskResultStatus.SUCCESSFUL


def test_every_pool_needs_a_thread() -> None:
    options = {"max_workers": 2, "queue_workers": {INTERACTIVE_QUEUE: 0}}
    with pytest.raises(ValueError, match="needs a thread"):
        ThreadBackend("default", {"QUEUES": QUEUES, "OPTIONS": options})
