"""The engine's version, written into packs and into every stored validation report."""

ENGINE_VERSION = "0.2.5"
