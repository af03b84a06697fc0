"""Where ambit finds its own files and the reference data: PACKAGE, the installed `ambit` folder;
CHECKOUT, the repository root of a source checkout (None for a wheel).
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
_ROOT = PACKAGE.parents[1]
CHECKOUT: Path | None = _ROOT if (_ROOT / "pyproject.toml").is_file() and PACKAGE.parent.name == "src" else None


def default_data_root() -> Path:
    """`$AMBIT_DATA`, else ../shared/data beside the checkout (or the working directory)."""
    if os.environ.get("AMBIT_DATA"):
        return Path(os.environ["AMBIT_DATA"])
    return (CHECKOUT or Path.cwd()).parent / "shared" / "data"


def shown(path: Path) -> str:
    """A package file's path as a user reads it: relative to the folder that holds `ambit/`."""
    try:
        return str(path.relative_to(PACKAGE.parent))
    except ValueError:
        return str(path)
