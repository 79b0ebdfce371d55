"""The key typed names are matched by (catalog.names.name_key)."""

import pytest

from catalog.names import name_key


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("Bullrog", "bullrog"),
        ("Kill-the  HIRELING!", "kill the hireling"),
        ("Curse! Duck of Doom", "curse duck of doom"),
        ("Émile's Élan", "emile s elan"),  # accents dropped; the apostrophe splits words
        ("  ", ""),
        ("???", ""),
    ],
)
def test_name_key_forgives_case_accents_punctuation_and_spacing(typed: str, key: str) -> None:
    assert name_key(typed) == key
