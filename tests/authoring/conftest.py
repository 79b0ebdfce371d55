# The catalog tests' set-file writer and contribution maker, for the exports with provenance.
from tests.catalog.conftest import accept_contribution, write_set

__all__ = ["accept_contribution", "write_set"]
