from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from catalog.api import views

app_name = "api"

urlpatterns = [
    path("sets/", views.SetList.as_view(), name="set_list"),
    path("sets/<slug:code>/", views.SetDetail.as_view(), name="set_detail"),
    path("cards/", views.CardList.as_view(), name="card_list"),
    path("cards/<int:card_id>/", views.CardDetail.as_view(), name="card_detail"),
    path("validate/", views.Validate.as_view(), name="validate"),
    path("scenarios/run/", views.ScenarioRun.as_view(), name="scenario_run"),
    path("proxies/", views.ProxySheets.as_view(), name="proxies"),
    path("packs/", views.PackList.as_view(), name="pack_list"),
    path("packs/<int:pack_id>/", views.PackDetail.as_view(), name="pack_detail"),
    path("schema/pack.json", views.PackSchema.as_view(), name="pack_schema"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    re_path(r"^(?P<rest>[\s\S]*)$", views.UnknownEndpoint.as_view(), name="unknown"),
]
