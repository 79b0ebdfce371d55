"""The card query language (shared/design/search-syntax.md): parse, then compile to Django Q."""
