from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("api/", include("catalog.api.urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("authoring.urls")),
    path("", include("catalog.urls")),
]

# Uploaded art in development; a production site serves MEDIA_ROOT from its web server.
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
