from django.urls import path

from contributions import views

app_name = "contributions"

urlpatterns = [
    path("sets/<slug:code>/propose/", views.propose_new, name="propose_new"),
    path("sets/<slug:code>/propose/preview/", views.propose_preview, name="propose_preview"),
    path(
        "sets/<slug:code>/cards/<slug:slug>/propose/",
        views.propose_change,
        name="propose_change",
    ),
    path("proposals/", views.proposal_list, name="proposal_list"),
    path("proposals/review/", views.review_queue, name="review_queue"),
    path("proposals/<int:pk>/", views.proposal_detail, name="proposal_detail"),
    path("proposals/<int:pk>/edit/", views.proposal_edit, name="proposal_edit"),
    path("proposals/<int:pk>/withdraw/", views.proposal_withdraw, name="proposal_withdraw"),
    path("proposals/<int:pk>/accept/", views.proposal_accept, name="proposal_accept"),
    path("proposals/<int:pk>/reject/", views.proposal_reject, name="proposal_reject"),
    path(
        "proposals/<int:pk>/ask-for-changes/",
        views.proposal_request_changes,
        name="proposal_request_changes",
    ),
    path("proposals/<int:pk>/photo/", views.proposal_photo, name="proposal_photo"),
    path("proposals/<int:pk>/face.png", views.proposal_face, name="proposal_face"),
]
