"""Rate limits of the API: writes, and the endpoints that make the server run the engine.

Reads are never counted. The rates come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]; a scope
missing there falls back to the rate given here, so a deployment need not list every scope.
"""

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView


class WriteThrottle(UserRateThrottle):
    """Unsafe requests per user (per address when anonymous); GET, HEAD and OPTIONS pass."""

    scope = "writes"
    default_rate = "1200/hour"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_rate(self) -> str | None:
        return self.THROTTLE_RATES.get(self.scope, self.default_rate)


class ValidateThrottle(WriteThrottle):
    """Validation and scenario runs: open to anyone, but each one is engine work."""

    scope = "validate"
    default_rate = "600/hour"


class LookupThrottle(WriteThrottle):
    """Reads asked for with a POST body (a collection of up to 75 names): open to anyone, but
    each body is read and each name looked up, so counted like writes."""

    scope = "lookups"
    default_rate = "1200/hour"
