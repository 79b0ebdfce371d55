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

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.tasks import DEFAULT_TASK_QUEUE_NAME, task_backends
from django.tasks.base import Task

INTERACTIVE_QUEUE = "interactive"
BULK_QUEUE = DEFAULT_TASK_QUEUE_NAME
# What settings.TASKS lists as the backend's QUEUES.
QUEUES = [INTERACTIVE_QUEUE, BULK_QUEUE]
# Interactive work is about a few cards, as one person saves them. The same task over more
# (a set of 1,000 cards imported, a whole set's faces) is bulk work, or one import would hold
# the interactive workers as a flood of simulations once held the only queue.
INTERACTIVE_MAX_CARDS = 20
# Inside `bulk_writes()`: cards are saved one by one, but as one piece of bulk work.
_bulk_writes: ContextVar[bool] = ContextVar("bulk_writes", default=False)


@contextmanager
def bulk_writes() -> Iterator[None]:
    """Inside it (around the transaction, so that work queued as it commits is inside too),
    the cards saved are bulk work however few each save holds: an import of a whole set
    queues its cards' validation and faces on the bulk queue."""
    token = _bulk_writes.set(True)
    try:
        yield
    finally:
        _bulk_writes.reset(token)


def in_bulk_writes() -> bool:
    """Whether the cards saved now are saved inside `bulk_writes()`."""
    return _bulk_writes.get()


def interactive[**P, R](task: Task[P, R], *, cards: int) -> Task[P, R]:
    """`task`, about `cards` cards, on the interactive queue when its backend has one and the
    cards are few (INTERACTIVE_MAX_CARDS; see the module's docstring) and not saved inside
    `bulk_writes()`, else on the bulk queue. Enqueue what this returns:
    `interactive(draw_faces, cards=len(ids)).enqueue(ids)`."""
    few = cards <= INTERACTIVE_MAX_CARDS and not in_bulk_writes()
    if few and INTERACTIVE_QUEUE in task_backends[task.backend].queues:
        return task.using(queue_name=INTERACTIVE_QUEUE)
    return task
