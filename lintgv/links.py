"""Where lintgv lives on the web: its home and each rule's page (the same addresses as
`[project.urls]` in pyproject.toml; a test keeps them equal)."""

HOMEPAGE = "https://github.com/lintgv/lintgv"
DOCUMENTATION = f"{HOMEPAGE}/blob/main/docs"


def rule_url(code: str) -> str:
    """Return the address of a rule's documentation page."""
    return f"{DOCUMENTATION}/rules/{code}.md"
