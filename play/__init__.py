"""Playing a pack: games at a rules-enforcing table, stored as their move log (issue 21)."""
