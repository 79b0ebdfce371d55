from corsheaders.signals import check_request_enabled
from django.apps import AppConfig

from cardsite.cors import api_reads_only


class CardsiteConfig(AppConfig):
    """The project as an app: the top layer, whose commands are the site's operations (serve,
    loadtest, backup, restore). It has no models."""

    name = "cardsite"
    verbose_name = "Card site operations"

    def ready(self) -> None:
        check_request_enabled.connect(api_reads_only, dispatch_uid="cardsite-cors")
