from django.urls import path

from prints import views

app_name = "prints"

urlpatterns = [
    path("faces/<int:card_id>/<str:digest>.png", views.card_face, name="card_face"),
    path("proxies/", views.proxies, name="proxies"),
    path("proxies/preview.png", views.proxy_preview, name="proxy_preview"),
    path("proxies/jobs/<int:job_id>/", views.proxy_job, name="proxy_job"),
    path(
        "proxies/jobs/<int:job_id>/proxies.pdf", views.proxy_job_download, name="proxy_job_download"
    ),
]
