from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    name = "authoring"
    verbose_name = "Authoring custom cards and sets"

    def ready(self) -> None:
        from django.conf import settings
        from PIL import Image

        # Pillow refuses (DecompressionBombError) images over twice this many pixels before
        # decoding them; uploads are held to the limit itself by authoring.forms.check_art.
        Image.MAX_IMAGE_PIXELS = settings.ART_MAX_PIXELS
