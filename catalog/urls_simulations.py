"""The simulation pages of a pack. No app_name: catalog/urls.py includes these patterns in the
`catalog` namespace (`catalog:simulation_start`, `catalog:simulation_detail`,
`catalog:simulation_plot`)."""

from django.urls import URLPattern, path

from catalog import views_simulations as views

urlpatterns: list[URLPattern] = [
    path("packs/<int:pack_id>/simulate/", views.simulation_start, name="simulation_start"),
    path(
        "packs/<int:pack_id>/simulations/<int:simulation_id>/",
        views.simulation_detail,
        name="simulation_detail",
    ),
    path(
        "packs/<int:pack_id>/simulations/<int:simulation_id>/<slug:plot>.svg",
        views.simulation_plot,
        name="simulation_plot",
    ),
]
