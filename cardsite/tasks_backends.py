"""A django.tasks backend that Django does not ship: ThreadBackend, the site's default.

Django 6.1 runs tasks inline (ImmediateBackend) or not at all (DummyBackend). ThreadBackend runs
them in the background of the web process itself, on small thread pools, so a long task (a
pack's simulation) neither blocks the request that started it nor needs a worker process. Each
queue has a pool of its own (accounts/queues.py): a short interactive task (a saved card's
validation) never waits behind a long one of another queue, however many are queued. A
deployment with several processes, or that must not lose queued tasks on a restart, uses
django_tasks_db's DatabaseBackend and its `db_worker` command instead (TASKS_BACKEND=database).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from traceback import format_exception
from typing import Any

from django.db import connections
from django.tasks import TaskContext, TaskResult, TaskResultStatus
from django.tasks.backends.base import BaseTaskBackend
from django.tasks.base import Task, TaskError
from django.tasks.exceptions import TaskResultDoesNotExist
from django.tasks.signals import task_enqueued, task_finished, task_started
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.json import normalize_json

# The oldest finished results are forgotten past this many, so memory stays bounded.
MAX_KEPT_RESULTS = 1000

# Shared by every thread: django.tasks makes one backend instance per thread, and a result must
# be found from any of them (the request that enqueued it, the worker, the next request).
_lock = threading.Lock()
_results: OrderedDict[str, TaskResult[Any, Any]] = OrderedDict()
_executors: dict[tuple[str, int], ThreadPoolExecutor] = {}
# One id per process: the worker id a result records.
_WORKER_ID = get_random_string(32)


def _executor(queue_name: str, max_workers: int) -> ThreadPoolExecutor:
    """The pool of one queue (of that size): the threads that run its tasks and no other's."""
    with _lock:
        executor = _executors.get((queue_name, max_workers))
        if executor is None:
            executor = ThreadPoolExecutor(
                max_workers=max_workers, thread_name_prefix=f"tasks-{queue_name}"
            )
            _executors[(queue_name, max_workers)] = executor
        return executor


def _set(result: TaskResult[Any, Any], **values: Any) -> None:
    # TaskResult is frozen: backends update it in place, as Django's own do.
    for name, value in values.items():
        object.__setattr__(result, name, value)


def _snapshot(result: TaskResult[Any, Any]) -> TaskResult[Any, Any]:
    """A copy the caller may keep: the worker thread goes on updating the stored one."""
    copy = replace(result, errors=list(result.errors), worker_ids=list(result.worker_ids))
    _set(copy, _return_value=getattr(result, "_return_value", None))
    return copy


def _forget_old_results() -> None:
    # Called with the lock held. Unfinished results are never dropped.
    excess = len(_results) - MAX_KEPT_RESULTS
    if excess <= 0:
        return
    finished = [key for key, result in _results.items() if result.is_finished][:excess]
    for key in finished:
        del _results[key]


class ThreadBackend(BaseTaskBackend):
    """Runs each enqueued task on a thread of its queue's module-level pool (OPTIONS
    `queue_workers`, {queue name: threads}, for the queues named there; `max_workers`, default
    2, for any other), not before its `run_after` when it has one, keeping the results in memory,
    where `get_result` finds them from any thread of the process (never from another
    process). Queued, deferred and running tasks are lost when the process stops; the worker
    thread closes its database connections after each task."""

    # A task with `run_after` waits on a timer thread, then joins the pool's queue.
    supports_defer = True
    supports_async_task = False
    supports_get_result = True
    supports_priority = False

    def __init__(self, alias: str, params: dict[str, Any]) -> None:
        super().__init__(alias, params)
        self.max_workers = int(self.options.get("max_workers", 2))
        self.queue_workers = {
            str(name): int(count)
            for name, count in dict(self.options.get("queue_workers", {})).items()
        }
        if min([self.max_workers, *self.queue_workers.values()]) < 1:
            raise ValueError(
                "ThreadBackend: every pool (OPTIONS max_workers, queue_workers) needs a thread"
            )

    def pool_size(self, queue_name: str) -> int:
        """The threads of the pool that runs the tasks of `queue_name`."""
        return self.queue_workers.get(queue_name, self.max_workers)

    def enqueue[**P, R](
        self, task: Task[P, R], args: list[Any], kwargs: dict[str, Any]
    ) -> TaskResult[P, R]:
        """Queue the task on the pool and return its result (READY, updated as it runs)."""
        self.validate_task(task)
        result: TaskResult[P, R] = TaskResult(
            task=task,
            id=get_random_string(32),
            status=TaskResultStatus.READY,
            enqueued_at=timezone.now(),
            started_at=None,
            finished_at=None,
            last_attempted_at=None,
            args=list(args),
            kwargs=dict(kwargs),
            backend=self.alias,
            errors=[],
            worker_ids=[],
        )
        with _lock:
            _results[result.id] = result
            _forget_old_results()
            returned = _snapshot(result)
        task_enqueued.send(type(self), task_result=returned)
        pool = _executor(task.queue_name, self.pool_size(task.queue_name))
        wait = (task.run_after - timezone.now()).total_seconds() if task.run_after else 0.0
        if wait > 0:
            # A daemon timer: like a queued task, a deferred one is lost when the process ends.
            timer = threading.Timer(wait, pool.submit, args=(self._run, result))
            timer.daemon = True
            timer.start()
        else:
            pool.submit(self._run, result)
        return returned

    def get_result(self, result_id: str) -> TaskResult[Any, Any]:
        """The task's result as it stands now (a copy), or TaskResultDoesNotExist."""
        with _lock:
            result = _results.get(result_id)
            if result is None:
                raise TaskResultDoesNotExist(result_id)
            return _snapshot(result)

    def _run(self, result: TaskResult[Any, Any]) -> None:
        task = result.task
        try:
            started = timezone.now()
            with _lock:
                _set(
                    result,
                    status=TaskResultStatus.RUNNING,
                    started_at=started,
                    last_attempted_at=started,
                )
                result.worker_ids.append(_WORKER_ID)
            task_started.send(type(self), task_result=self.get_result(result.id))
            try:
                args = list(result.args)
                if task.takes_context:
                    args.insert(0, TaskContext(task_result=result))
                value = task.call(*args, **result.kwargs)
                value = normalize_json(value)
            except BaseException as exc:  # as ImmediateBackend: SystemExit is a failure too
                error = TaskError(
                    exception_class_path=f"{type(exc).__module__}.{type(exc).__qualname__}",
                    traceback="".join(format_exception(exc)),
                )
                with _lock:
                    result.errors.append(error)
                    _set(result, status=TaskResultStatus.FAILED, finished_at=timezone.now())
                # Sent inside the handler, so the log line carries the traceback.
                task_finished.send(type(self), task_result=self.get_result(result.id))
            else:
                with _lock:
                    _set(
                        result,
                        _return_value=value,
                        status=TaskResultStatus.SUCCESSFUL,
                        finished_at=timezone.now(),
                    )
                task_finished.send(type(self), task_result=self.get_result(result.id))
        finally:
            connections.close_all()
