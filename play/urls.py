from django.urls import path

from play import views
from play.converters import GAME_ID

app_name = "play"

urlpatterns = [
    path("play/new/", views.game_new, name="new"),
    path(f"play/{GAME_ID}/", views.game_table, name="table"),
    path(f"play/{GAME_ID}/move/", views.game_move_view, name="move"),
    path(f"play/{GAME_ID}/undo/", views.game_undo_view, name="undo"),
    path(f"play/{GAME_ID}/restart/", views.game_restart_view, name="restart"),
    path(f"play/{GAME_ID}/scenario/", views.game_scenario_view, name="scenario"),
]
