"""The scenarios pages of a card. No app_name: these patterns join the `authoring` namespace
where authoring's URLs are included at the site's root (names: authoring:scenarios, ...)."""

from django.urls import path

from authoring import views_scenarios as views

_CARD = "sets/<slug:code>/<slug:slug>/scenarios/"

urlpatterns = [
    path(_CARD, views.scenarios, name="scenarios"),
    path(f"{_CARD}add/", views.scenario_add, name="scenario_add"),
    path(f"{_CARD}run/", views.scenarios_run, name="scenarios_run"),
    path(f"{_CARD}<int:scenario_id>/edit/", views.scenario_edit, name="scenario_edit"),
    path(f"{_CARD}<int:scenario_id>/delete/", views.scenario_delete, name="scenario_delete"),
]
