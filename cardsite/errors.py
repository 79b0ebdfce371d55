"""The site's answer to an error no view handled (Django's `handler500`).

Pages get the site's own 500 page (templates/500.html, rendered without a request context or
the database, either of which may be what failed); anything under /api/ gets the API's error
object (catalog/api/errors.py), so a client reading JSON never meets an HTML page."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import server_error as page_server_error

API_PREFIX = "/api/"


def server_error(request: HttpRequest) -> HttpResponse:
    """Handler for uncaught exceptions: JSON under /api/, the site's 500 page elsewhere."""
    if request.path.startswith(API_PREFIX):
        message = "the server failed to answer this request; try again later"
        return JsonResponse(
            {
                "object": "error",
                "status": 500,
                "code": "server_error",
                "details": message,
                "errors": [{"path": "", "message": message}],
            },
            status=500,
        )
    return page_server_error(request)
