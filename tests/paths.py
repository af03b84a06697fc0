"""Where the tests find the repository and the reference data, in one place for every folder.

The data root is `$AMBIT_DATA` when set, else `../shared/data` next to the repository.
Imported as `tests.paths` (the test folders are packages, so every module has one name).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "ambit"  # the package
SHARED_DATA = Path(os.environ["AMBIT_DATA"]).resolve() if os.environ.get("AMBIT_DATA") else REPO.parent / "shared" / "data"


def need_shared(sub: str = "") -> Path:
    """The path under the data root, or skip the test with the reason."""
    path = SHARED_DATA / sub
    if not path.exists():
        pytest.skip(f"reference data not found at {path} (set $AMBIT_DATA or provide ../shared/data)")
    return path
