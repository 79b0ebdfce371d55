from django.apps import AppConfig


class PrintsConfig(AppConfig):
    """Prints: card faces and backs (one renderer), proxy sheets and proxy jobs."""

    name = "prints"
    verbose_name = "Prints"

    def ready(self) -> None:
        # Registers the face and proxy exporters and gives the catalog its face addresses.
        from catalog.faces import face_key_provider_set
        from prints import faces, proxies  # noqa: F401
        from prints.selectors import face_key

        face_key_provider_set(face_key)
