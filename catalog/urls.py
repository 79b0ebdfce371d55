from django.urls import path

from catalog import views

app_name = "catalog"

urlpatterns = [
    path("", views.home, name="home"),
    path("cards/", views.card_search, name="card_search"),
    path("cards/syntax/", views.search_help, name="search_help"),
    path("cards/random/", views.random_card, name="random_card"),
    path("faces/<int:card_id>/<str:digest>.png", views.card_face, name="card_face"),
    path("sets/<slug:code>/", views.set_detail, name="set_detail"),
    path("sets/<slug:code>/<slug:slug>/", views.card_detail, name="card_detail"),
]
