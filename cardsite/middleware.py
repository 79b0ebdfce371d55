"""The site's own middleware."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import patch_cache_control

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
