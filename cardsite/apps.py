from django.apps import AppConfig


class CardsiteConfig(AppConfig):
    """The project as an app: the top layer, whose commands are the site's operations (serve,
    loadtest, backup, restore). It has no models."""

    name = "cardsite"
    verbose_name = "Card site operations"
