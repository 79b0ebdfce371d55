from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    path("play/new/", views.game_new, name="new"),
    path("play/<int:game_id>/", views.game_table, name="table"),
    path("play/<int:game_id>/move/", views.game_move_view, name="move"),
]
