"""The rules engine and the effect language: pure Python, no Django.

Nothing in this package may import Django, the catalog app or the Django parts of the validator
(a test enforces it), so the engine can load and play card packs anywhere.
"""

ENGINE_VERSION = "0.1.0"
