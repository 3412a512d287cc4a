"""Choosing a new identifier that does not clash with the ones around it."""


def free_name(taken: set[str], base: str) -> str:
    """Return `base`, or `base_2`, `base_3`, ... whichever is not in `taken`."""
    if base not in taken:
        return base
    counter = 2
    while f"{base}_{counter}" in taken:
        counter += 1
    return f"{base}_{counter}"
