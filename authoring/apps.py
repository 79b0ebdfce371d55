from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    name = "authoring"
    verbose_name = "Authoring custom cards and sets"

    def ready(self) -> None:
        from django.conf import settings
        from PIL import Image

        from authoring.scenarios import scenarios_run_after_save
        from catalog.changes import catalog_change_receiver_add
        from catalog.images import DECODE_GUARD_PIXELS

        # Pillow refuses (DecompressionBombError) images over twice this many pixels before
        # decoding them; uploads are held to ART_MAX_PIXELS before that by catalog.images.
        Image.MAX_IMAGE_PIXELS = max(settings.ART_MAX_PIXELS, DECODE_GUARD_PIXELS)
        # A card's own scenarios run again whoever saves the card (catalog/changes.py).
        catalog_change_receiver_add("card-scenarios", scenarios_run_after_save)
