"""The background queues: which work may wait behind which.

The site's background work is of two kinds. Interactive work answers someone who is waiting
for it now and takes a fraction of a second: a saved card's validation and its face. Bulk work
is asked for and then watched on a progress page, and may take minutes of CPU: pack
simulations, Tabletop Simulator exports, proxy PDF jobs, the bulk data files. On one queue, a
few accounts' simulations kept every worker busy for minutes while everyone's card reports
waited behind them. So the interactive work has a queue of its own (`INTERACTIVE_QUEUE`), run
by workers of its own that bulk work can never occupy: the thread backend keeps a pool per
queue (cardsite/tasks_backends.py), and `manage.py serve` starts a `db_worker` for each
queue (cardsite/operations/serve.py). Bulk work stays on Django's default queue, so a task
that names no queue is bulk: nothing long lands on the interactive workers by accident.

The queues are listed in settings.TASKS (`QUEUES`). A backend configured with one queue (a
test's, or a deployment's own TASKS) runs interactive work on that queue with the rest.
"""

from __future__ import annotations

from django.tasks import DEFAULT_TASK_QUEUE_NAME, task_backends
from django.tasks.base import Task

INTERACTIVE_QUEUE = "interactive"
BULK_QUEUE = DEFAULT_TASK_QUEUE_NAME
# What settings.TASKS lists as the backend's QUEUES.
QUEUES = [INTERACTIVE_QUEUE, BULK_QUEUE]


def interactive[**P, R](task: Task[P, R]) -> Task[P, R]:
    """`task` on the interactive queue, when its backend has one (see the module's docstring);
    enqueue what this returns: `interactive(draw_faces).enqueue(ids)`."""
    if INTERACTIVE_QUEUE in task_backends[task.backend].queues:
        return task.using(queue_name=INTERACTIVE_QUEUE)
    return task
