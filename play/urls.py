from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    path("play/new/", views.game_new, name="new"),
    path("play/<int:game_id>/", views.game_table, name="table"),
    path("play/<int:game_id>/move/", views.game_move_view, name="move"),
    path("play/<int:game_id>/undo/", views.game_undo_view, name="undo"),
    path("play/<int:game_id>/restart/", views.game_restart_view, name="restart"),
    path("play/<int:game_id>/scenario/", views.game_scenario_view, name="scenario"),
]
