"""The site's own middleware."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control, set_response_etag
from django.utils.deprecation import MiddlewareMixin
from django.utils.http import http_date

GetResponse = Callable[[HttpRequest], HttpResponseBase]
AsyncGetResponse = Callable[[HttpRequest], Awaitable[HttpResponseBase]]


class PrivateWhenSignedIn:
    """An answer to a request that carries a session or an API token, and says nothing of
    caching itself, gets `Cache-Control: private`: it may show what only that user may see
    (their packs, their private sets, their name), so no shared cache may keep it for
    others. Answers that chose (public faces, static files, `no-store` pages) keep their
    choice. Runs under WSGI and ASGI alike, without a thread of its own under ASGI."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: GetResponse | AsyncGetResponse) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self._acall(request)
        response = self.get_response(request)
        assert isinstance(response, HttpResponseBase)
        return self._private(request, response)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        response = await self.get_response(request)  # type: ignore[misc]
        return self._private(request, response)

    @staticmethod
    def _private(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        signed_in = (
            settings.SESSION_COOKIE_NAME in request.COOKIES or "HTTP_AUTHORIZATION" in request.META
        )
        if signed_in and not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True)
        return response


class ApiRevalidation(MiddlewareMixin):
    """Every successful read of the API carries an `ETag` (a digest of the answer's bytes) and
    a `Last-Modified`, and answers `304 Not Modified` to a request whose `If-None-Match` or
    `If-Modified-Since` shows the client already holds it. `no-cache` asks clients to check
    back each time rather than guess a freshness lifetime from `Last-Modified`.

    `Last-Modified` is the second this address first served its current answer, kept in the
    default cache beside the answer's ETag: an answer that differs from the one recorded
    starts a new, later second, so a client holding an older answer never gets a 304 for a
    newer one. (Several of the API's answers mix rows of many tables, counts and validation
    reports, which share no one modification time.) A lost record only starts a new second."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if (
            request.method not in ("GET", "HEAD")
            or not request.path.startswith("/api/")
            or response.status_code != 200
            or not isinstance(response, HttpResponse)  # a streamed or file answer
        ):
            return response
        if not response.has_header("ETag"):
            set_response_etag(response)
        etag = response["ETag"]
        since = _served_since(request.get_full_path(), etag)
        response["Last-Modified"] = http_date(since)
        patch_cache_control(response, no_cache=True)
        conditional = get_conditional_response(
            request, etag=etag, last_modified=since, response=response
        )
        return conditional if conditional is not None else response


# How long the record of an address's current answer is kept.
SERVED_RECORD_SECONDS = 7 * 24 * 3600


def _served_since(address: str, etag: str) -> int:
    key = "api-served:" + hashlib.sha256(address.encode()).hexdigest()
    now = int(time.time())
    recorded = cache.get(key)
    if recorded is not None and recorded[0] == etag:
        return int(recorded[1])
    since = now if recorded is None else max(now, int(recorded[1]) + 1)
    cache.set(key, (etag, since), timeout=SERVED_RECORD_SECONDS)
    return since
