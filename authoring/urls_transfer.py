"""Set export and import. Included into the `authoring` namespace at the site root, before
catalog.urls, so that `sets/import/` is not taken for a set with the code "import"."""

from django.urls import path

from authoring import views_transfer

urlpatterns = [
    path("sets/import/", views_transfer.set_import, name="set_import"),
    path("sets/<slug:code>/export.yaml", views_transfer.set_export, name="set_export"),
]
