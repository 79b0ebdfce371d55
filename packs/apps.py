from django.apps import AppConfig


class PacksConfig(AppConfig):
    """Packs: building them from the catalog, the blend report, simulations and exports."""

    name = "packs"
    verbose_name = "Packs"

    def ready(self) -> None:
        # Registers the pack exporters and tells the proxy page where stored packs are.
        from packs import exporters  # noqa: F401
        from packs.selectors import StoredPacks
        from packs.tts import exporter  # noqa: F401
        from prints.sources import pack_source_set

        pack_source_set(StoredPacks())
