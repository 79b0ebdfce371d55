"""The catalog's API endpoints, and the API's own pages (schema, docs, the JSON 404).

cardsite/api_urls.py puts every app's endpoints under /api/ between these two lists; the
catch-all 404 must come last."""

from django.urls import URLPattern, URLResolver, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from catalog.api import views, views_names

urlpatterns: list[URLPattern | URLResolver] = [
    path("sets/", views.SetList.as_view(), name="set_list"),
    path("sets/<slug:code>/", views.SetDetail.as_view(), name="set_detail"),
    path("cards/", views.CardList.as_view(), name="card_list"),
    path("cards/named/", views_names.CardNamed.as_view(), name="card_named"),
    path("cards/autocomplete/", views_names.CardAutocomplete.as_view(), name="card_autocomplete"),
    path("cards/collection/", views_names.CardCollection.as_view(), name="card_collection"),
    path("cards/<int:card_id>/", views.CardDetail.as_view(), name="card_detail"),
    path("validate/", views.Validate.as_view(), name="validate"),
    path("scenarios/run/", views.ScenarioRun.as_view(), name="scenario_run"),
]

closing_patterns: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    re_path(r"^(?P<rest>[\s\S]*)$", views.UnknownEndpoint.as_view(), name="unknown"),
]
