from django.urls import path

from authoring import urls_scenarios, urls_transfer, views

app_name = "authoring"

# Card slugs and set codes are free words, so no set-level page shares a path shape with a
# card-level one: cards live under .../cards/<slug>/.
urlpatterns = [
    path("author/sets/new/", views.set_create, name="set_create"),
    path("author/trash/", views.trash, name="trash"),
    path("author/start-from/", views.card_new_from, name="card_new_from"),
    path("author/trash/cards/<int:card_id>/restore/", views.card_restore, name="card_restore"),
    path("author/preview/<slug:code>/", views.card_preview, name="card_preview"),
    path("author/card-controls.json", views.card_controls, name="card_controls"),
    path("author/sets/<slug:code>/", views.set_edit, name="set_edit"),
    path("author/sets/<slug:code>/delete/", views.set_delete, name="set_delete"),
    path("author/sets/<slug:code>/restore/", views.set_restore, name="set_restore"),
    path("author/sets/<slug:code>/add-card/", views.card_new, name="card_new"),
    path("author/sets/<slug:code>/cards/<slug:slug>/", views.card_edit, name="card_edit"),
    path(
        "author/sets/<slug:code>/cards/<slug:slug>/delete/", views.card_delete, name="card_delete"
    ),
    path(
        "author/sets/<slug:code>/cards/<slug:slug>/revert/<int:number>/",
        views.card_revert,
        name="card_revert",
    ),
    path("sets/<slug:code>/<slug:slug>/history/", views.card_history, name="card_history"),
    *urls_transfer.urlpatterns,
    *urls_scenarios.urlpatterns,
]
