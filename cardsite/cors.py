"""Which requests other sites' pages may make to the API (CORS, by django-cors-headers).

Browser-based deck tools may read: every GET and HEAD under /api/, and the collection lookup
(a read that takes its identifiers in a POST body). Writes never answer to another origin, so
a page elsewhere cannot act for a signed-in visitor; and since no credentials are allowed
cross-origin, the visitor's session cookie is never sent with such a request anyway."""

from typing import Any

from django.http import HttpRequest

READ_METHODS = frozenset({"GET", "HEAD"})
# POST endpoints that only read.
READ_BY_POST = frozenset({"/api/cards/collection/"})


def _reads(path: str, method: str) -> bool:
    return method in READ_METHODS or (method == "POST" and path in READ_BY_POST)


def api_reads_only(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    """`corsheaders.signals.check_request_enabled`: True for a read of the API, or for the
    preflight of one (an OPTIONS request whose announced method is a read)."""
    if not request.path.startswith("/api/"):
        return False
    method = request.method or ""
    if method == "OPTIONS":
        method = request.headers.get("Access-Control-Request-Method", "")
    return _reads(request.path, method.upper())
