"""The card query language (shared/design/search-syntax.md): parse, then compile to Django Q."""

from catalog.search.parser import MAX_NESTING, QueryTooComplex

__all__ = ["MAX_NESTING", "QueryTooComplex"]
