"""The transfer pages under the `authoring` namespace, before the catalog's pages (as the site
includes them), with the accounts pages the base template links to."""

from django.urls import include, path

from authoring import urls_transfer

urlpatterns = [
    path("", include((urls_transfer.urlpatterns, "authoring"))),
    path("accounts/", include("accounts.urls")),
    path("", include("prints.urls")),
    path("", include("packs.urls")),
    path("", include("catalog.urls")),
]
