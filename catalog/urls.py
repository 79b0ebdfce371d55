from django.urls import path

from catalog import urls_simulations, views

app_name = "catalog"

urlpatterns = [
    path("", views.home, name="home"),
    path("cards/", views.card_search, name="card_search"),
    path("cards/syntax/", views.search_help, name="search_help"),
    path("cards/random/", views.random_card, name="random_card"),
    path("cards/<int:card_id>/art", views.card_art, name="card_art"),
    path("faces/<int:card_id>/<str:digest>.png", views.card_face, name="card_face"),
    path("proxies/", views.proxies, name="proxies"),
    path("proxies/preview.png", views.proxy_preview, name="proxy_preview"),
    path("proxies/jobs/<int:job_id>/", views.proxy_job, name="proxy_job"),
    path(
        "proxies/jobs/<int:job_id>/proxies.pdf", views.proxy_job_download, name="proxy_job_download"
    ),
    path("packs/", views.pack_list, name="pack_list"),
    path("packs/new/", views.pack_new, name="pack_new"),
    path("packs/<int:pack_id>/", views.pack_detail, name="pack_detail"),
    path("packs/<int:pack_id>/download.<str:fmt>", views.pack_download, name="pack_download"),
    *urls_simulations.urlpatterns,
    path("sets/<slug:code>/", views.set_detail, name="set_detail"),
    path("sets/<slug:code>/<slug:slug>/", views.card_detail, name="card_detail"),
]
