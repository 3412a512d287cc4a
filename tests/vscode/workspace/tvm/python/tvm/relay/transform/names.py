"""Names the lifted functions start with."""

PREFIX = "lifted"  # lintgv: ignore[GV101]
