"""Rewrites that need more than one node: scope look-ups, inserted declarations and
includes, and changes that span several sites or files (GV101 to a supply, GV2xx to a
NameSupply). Rules call these to build their fixes; `lintgv fix` proves and applies them.
"""


def nothing_in_scope(supply_type: str) -> str:
    """Return why a GlobalVar site has no fix when nothing in scope can name it."""
    return f"no {supply_type} or IRModule in scope to name it with"
