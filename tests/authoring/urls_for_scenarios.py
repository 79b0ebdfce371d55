"""The scenarios pages with the catalog (and the pages that base.html links to), for
the tests of authoring/urls_scenarios.py until authoring's own URLs include it."""

from django.urls import include, path

from authoring import urls_scenarios

urlpatterns = [
    path("accounts/", include("accounts.urls")),
    path("", include((urls_scenarios.urlpatterns, "authoring"))),
    path("", include("prints.urls")),
    path("", include("packs.urls")),
    path("", include("catalog.urls")),
]
