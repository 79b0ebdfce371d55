"""Every API error has one shape: {"object": "error", "status", "code", "details", "errors"}."""

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler


def _flatten(detail: Any, path: str = "") -> list[dict[str, str]]:
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
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
    response = exception_handler(exc, context)
    if response is None:
        return None
    errors = _flatten(response.data)
    code = getattr(exc, "default_code", "error")
    details = errors[0]["message"] if len(errors) == 1 else f"{len(errors)} errors"
    response.data = {
        "object": "error",
        "status": response.status_code,
        "code": code,
        "details": details,
        "errors": errors,
    }
    return response
