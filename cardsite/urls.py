from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from cardsite.docs import doc_view
from cardsite.health import health_view

# No static() route for MEDIA_URL: uploaded files (card art, proxy PDFs) are reached only
# through views that check who may see them and read them through the storage API.
urlpatterns: list[URLPattern | URLResolver] = [
    # First: the health check is polled often and should not wait for the routes below.
    path("healthz/", health_view, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("cardsite.api_urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("authoring.urls")),
    path("", include("prints.urls")),
    path("", include("packs.urls")),
    path("", include("play.urls")),
    # Before catalog: /sets/<code>/propose/ would otherwise read as a card named "propose".
    path("", include("contributions.urls")),
    path("", include("catalog.urls")),
    # Site documentation rendered from docs/*.md (issue 17: the editor's help links here).
    path("docs/<slug:slug>/", doc_view, name="doc_page"),
]

# Pages get the site's own 500 page; the API keeps its JSON error object (cardsite/errors.py).
handler500 = "cardsite.errors.server_error"
