from django.urls import path

from packs import views, views_simulations

app_name = "packs"

urlpatterns = [
    path("packs/", views.pack_list, name="pack_list"),
    path("packs/new/", views.pack_new, name="pack_new"),
    path("packs/<int:pack_id>/", views.pack_detail, name="pack_detail"),
    path("packs/<int:pack_id>/download.<str:fmt>", views.pack_download, name="pack_download"),
    path(
        "packs/<int:pack_id>/simulate/",
        views_simulations.simulation_start,
        name="simulation_start",
    ),
    path(
        "packs/<int:pack_id>/simulations/<int:simulation_id>/",
        views_simulations.simulation_detail,
        name="simulation_detail",
    ),
    path(
        "packs/<int:pack_id>/simulations/<int:simulation_id>/<slug:plot>.svg",
        views_simulations.simulation_plot,
        name="simulation_plot",
    ),
]
