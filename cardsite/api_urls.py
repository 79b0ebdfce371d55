"""Everything under /api/ (the `api` namespace): each app's endpoints, in the order the
schema lists them, then the schema, the docs and the JSON 404 for any other path."""

from django.urls import URLPattern, URLResolver

from bulk import api as bulk_api
from catalog.api import urls as catalog_api
from contributions import api as contributions_api
from packs import api as packs_api
from play import api as play_api
from prints import api as prints_api

app_name = "api"

urlpatterns: list[URLPattern | URLResolver] = [
    *catalog_api.urlpatterns,
    *prints_api.urlpatterns,
    *packs_api.urlpatterns,
    *contributions_api.urlpatterns,
    *bulk_api.urlpatterns,
    *play_api.urlpatterns,
    *catalog_api.closing_patterns,
]
