from django.apps import AppConfig


class BulkConfig(AppConfig):
    """Bulk data: the whole public catalog as downloadable files, made again after changes."""

    name = "bulk"
    verbose_name = "Bulk data"

    def ready(self) -> None:
        # The catalog tells of its changes through a hook; the files are made again then.
        from bulk.tasks import bulk_data_queue
        from catalog.changes import catalog_change_receiver_add

        catalog_change_receiver_add("bulk-data", bulk_data_queue)
