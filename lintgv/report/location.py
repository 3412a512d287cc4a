"""How every format names a file: relative to the current folder when inside it."""

from pathlib import Path


def display_path(path: Path) -> str:
    """Return `path` relative to the current folder when below it, else as given."""
    try:
        return path.absolute().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()
