from django.urls import path

from play import views
from play.converters import GAME_ID

app_name = "play"

urlpatterns = [
    path("play/new/", views.game_new, name="new"),
    path("play/mine/", views.your_games, name="mine"),
    # A seat opened by its link is remembered for "Your games" (views.remembers_seat).
    path(f"play/{GAME_ID}/", views.remembers_seat(views.game_table), name="table"),
    path(f"play/{GAME_ID}/dealt/", views.game_dealt, name="dealt"),
    path(f"play/{GAME_ID}/move/", views.game_move_view, name="move"),
    path(f"play/{GAME_ID}/undo/", views.game_undo_view, name="undo"),
    path(f"play/{GAME_ID}/time-up/", views.game_time_up_view, name="time_up"),
    path(f"play/{GAME_ID}/restart/", views.game_restart_view, name="restart"),
    path(f"play/{GAME_ID}/scenario/", views.game_scenario_view, name="scenario"),
]
