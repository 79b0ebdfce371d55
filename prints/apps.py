from django.apps import AppConfig


class PrintsConfig(AppConfig):
    """Prints: card faces and backs (one renderer), proxy sheets and proxy jobs."""

    name = "prints"
    verbose_name = "Prints"

    def ready(self) -> None:
        # Registers the face and proxy exporters, gives the catalog its face addresses, and
        # has a saved card's face drawn ahead in the background.
        from catalog.changes import catalog_change_receiver_add
        from catalog.faces import face_key_provider_set
        from prints import faces, proxies  # noqa: F401
        from prints.drawing import faces_queue
        from prints.selectors import face_key

        face_key_provider_set(face_key)
        catalog_change_receiver_add("faces", faces_queue)
