"""Every API error has one shape: {"object": "error", "status", "code", "details", "errors"}.

`service_errors` turns what the services and the engine raise into these errors, so that a
view only wraps its one service call: a document that does not parse is a 400 naming each
path, a set change that cannot be made a 400 naming its field, a refused change a 403 and an
edit based on an old revision a 409. A limit's refusal (`accounts.limits.TooManyRequests`),
wherever it is raised, is a 429 `throttled` with `Retry-After` and the words saying when to
retry.
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler

from accounts.limits import TooManyRequests
from catalog.services import SetError, StaleRevisionError
from validator.engine import CardDocumentError, RuleViolation, ScenarioError


class ApiError(exceptions.APIException):
    """An error that lists its own (path, message) pairs, with `extra` keys beside them in
    the error object (an ambiguous name's `candidates`)."""

    def __init__(
        self,
        status: int,
        code: str,
        errors: Sequence[tuple[str, str]],
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.status_code = status
        self.default_code = code
        self.errors = [{"path": path, "message": message} for path, message in errors]
        self.extra = extra or {}
        super().__init__(errors[0][1] if len(errors) == 1 else f"{len(errors)} errors", code)


class TooManyRequestsError(ApiError):
    """429 `throttled` for a limit of accounts/limits.py: its words (how many, and when to
    retry) in the error object, its wait in `Retry-After` (DRF's handler sets it from
    `wait`)."""

    def __init__(self, refusal: TooManyRequests) -> None:
        super().__init__(429, "throttled", [("", refusal.message)])
        self.wait = refusal.retry_after


def join_path(prefix: str, path: str) -> str:
    """`effects` + `kidn` -> `effects.kidn`; `effects` + `[0].type` -> `effects[0].type`."""
    if not prefix or not path:
        return prefix or path
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


@contextmanager
def service_errors(document_path: str = "") -> Iterator[None]:
    """Raise the API error for what a service call raises. `document_path` is where the
    document sits in the request body (`effects`), prefixed to each of its error paths."""
    try:
        yield
    except (CardDocumentError, ScenarioError) as exc:
        errors = [(join_path(document_path, e.path), e.message) for e in exc.errors]
        raise ApiError(400, "invalid", errors or [(document_path, str(exc))]) from exc
    except SetError as exc:
        raise ApiError(400, "invalid", [(exc.field, exc.message)]) from exc
    except StaleRevisionError as exc:
        message = (
            f"the card is now at revision {exc.card.revision}; this edit is based on revision "
            f"{exc.base_revision}. Read the card again and redo the edit on revision "
            f"{exc.card.revision}"
        )
        raise ApiError(409, "conflict", [("revision", message)]) from exc
    except RuleViolation as exc:
        raise ApiError(400, "invalid", [(document_path, str(exc))]) from exc
    except DjangoPermissionDenied as exc:
        raise exceptions.PermissionDenied(str(exc) or None) from exc


def _flatten(detail: Any, path: str = "") -> list[dict[str, str]]:
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
            if key == api_settings.NON_FIELD_ERRORS_KEY:  # about the object at `path` itself
                out += _flatten(value, path)
                continue
            if isinstance(key, int):  # the items of a list, by index (DRF's ListSerializer)
                out += _flatten(value, f"{path}[{key}]")
                continue
            out += _flatten(value, f"{path}.{key}" if path else str(key))
        return out
    if isinstance(detail, list):
        out = []
        for index, value in enumerate(detail):
            inner = f"{path}[{index}]" if isinstance(value, dict | list) else path
            out += _flatten(value, inner)
        return out
    return [{"path": path, "message": str(detail)}]


def error_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, TooManyRequests):
        exc = TooManyRequestsError(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None
    errors = exc.errors if isinstance(exc, ApiError) else _flatten(response.data)
    code = getattr(exc, "default_code", "error")
    details = errors[0]["message"] if len(errors) == 1 else f"{len(errors)} errors"
    response.data = {
        "object": "error",
        "status": response.status_code,
        "code": code,
        "details": details,
        "errors": errors,
        **(exc.extra if isinstance(exc, ApiError) else {}),
    }
    return response
