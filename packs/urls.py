from django.urls import path, re_path

from packs import views, views_simulations
from packs.tts import views as views_tts

app_name = "packs"

urlpatterns = [
    path("packs/", views.pack_list, name="pack_list"),
    path("packs/new/", views.pack_new, name="pack_new"),
    path("packs/<int:pack_id>/", views.pack_detail, name="pack_detail"),
    # The zip made while the request waited, before exports ran in the background.
    path(
        "packs/<int:pack_id>/download.tts",
        views_tts.tts_export_old_download,
        name="tts_export_old_download",
    ),
    path("packs/<int:pack_id>/download.<str:fmt>", views.pack_download, name="pack_download"),
    path("packs/<int:pack_id>/tts/", views_tts.tts_export_start, name="tts_export_start"),
    path(
        "packs/<int:pack_id>/tts/<int:export_id>/",
        views_tts.tts_export_detail,
        name="tts_export",
    ),
    path(
        "packs/<int:pack_id>/tts/<int:export_id>/download.zip",
        views_tts.tts_export_download,
        name="tts_export_download",
    ),
    path(
        "packs/<int:pack_id>/tts/<int:export_id>/saved-object.json",
        views_tts.tts_export_saved_object,
        name="tts_export_saved_object",
    ),
    path(
        "packs/<int:pack_id>/tts/<int:export_id>/link/",
        views_tts.tts_export_link,
        name="tts_export_link",
    ),
    # The hosted images, fetched by Tabletop Simulator without a session.
    re_path(
        r"^tts/sheets/(?P<sha256>[0-9a-f]{64})\.jpg$",
        views_tts.tts_sheet_public,
        name="tts_sheet_public",
    ),
    re_path(
        r"^tts/sheets/(?P<token>[A-Za-z0-9_-]{43})/(?P<sha256>[0-9a-f]{64})\.jpg$",
        views_tts.tts_sheet,
        name="tts_sheet",
    ),
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
