"""The site's own task backend (cardsite/tasks_backends.py): tasks run on its threads, a
deferred one not before its `run_after`."""

import threading
import time
from datetime import timedelta

from django.tasks import TaskResultStatus, task, task_backends
from django.test import override_settings
from django.utils import timezone

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
