from django.urls import path

from catalog import views, views_advanced

app_name = "catalog"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("cards/", views.card_search, name="card_search"),
    path("cards/syntax/", views_advanced.search_syntax, name="search_help"),
    path("cards/random/", views.random_card, name="random_card"),
    path("cards/advanced/", views_advanced.advanced_search, name="advanced_search"),
    path("cards/<int:card_id>/art", views.card_art, name="card_art"),
    # After every fixed page under accounts/ (accounts/urls.py comes first in the site).
    path("accounts/<str:username>/", views.profile, name="profile"),
    path("sets/<slug:code>/", views.set_detail, name="set_detail"),
    path("sets/<slug:code>/help/", views.set_help, name="set_help"),
    path("sets/<slug:code>/<slug:slug>/", views.card_detail, name="card_detail"),
]
