"""Where the server keeps its data by default, without importing the server's dependencies
(``nemeton serve --help`` shows it): the data directory and its SQLite file."""

from __future__ import annotations

import os
from pathlib import Path

DB_FILE = "nemeton.db"
LEGACY_DATA_DIR = "~/.local/share/nemeton"  # where versions before platformdirs kept it, everywhere


def data_dir() -> tuple[Path, str | None]:
    """The data directory and, when it is not the usual one, a sentence saying why:
    ``$NEMETON_DATA`` if set, else platformdirs' user data directory for "nemeton" (Linux:
    ``$XDG_DATA_HOME/nemeton``, else ``~/.local/share/nemeton``; macOS: ``~/Library/Application
    Support/nemeton``; Windows: ``%LOCALAPPDATA%\\nemeton``). A database left in the old place
    (``~/.local/share/nemeton/nemeton.db``) is still used where that differs from the new
    default, and the sentence says so."""
    if os.environ.get("NEMETON_DATA"):
        return Path(os.environ["NEMETON_DATA"]).expanduser(), None
    import platformdirs
    new = Path(platformdirs.user_data_dir("nemeton", appauthor=False))
    old = Path(os.path.expanduser(LEGACY_DATA_DIR))
    if (old / DB_FILE).exists() and old.resolve() != new.resolve():
        return old, (f"using the database found in the old data directory {old}; the default is now {new} "
                     f"(move {DB_FILE} there, or set NEMETON_DATA={old}, to say which)")
    return new, None


def default_db_path() -> Path:
    """The default SQLite file: ``nemeton.db`` in :func:`data_dir`."""
    return data_dir()[0] / DB_FILE
