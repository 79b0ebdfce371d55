"""The health check: `GET /healthz/` says whether this web process can reach its database.

It is what a load balancer or a supervisor polls, and the load test's ceiling: the cheapest
answer the server gives that still goes through a web worker, the middleware and one round
trip to the database. So it runs one query and nothing else: no session, no user, no template,
no cache lookup, nothing counted against a rate limit.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


def database_reachable() -> bool:
    """Whether the database answers one trivial query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row = cursor.fetchone()
            return bool(row == (1,))
    except DatabaseError:
        logger.exception("the health check could not reach the database")
        return False


@never_cache
@require_safe
def health_view(request: HttpRequest) -> JsonResponse:
    """200 `{"status": "ok"}` when the database answers, 503 `{"status": "unavailable"}`
    otherwise; never cached, so every poll asks again."""
    if database_reachable():
        return JsonResponse({"status": "ok"})
    return JsonResponse({"status": "unavailable"}, status=503)
