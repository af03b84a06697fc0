"""Shared fixtures: the reference data root (located by `tests/paths.py`), and AmP archives
extracted to a temp dir.

AmP's licence allows only the compressed archives: they are extracted to a pytest temp
folder, never into the repository.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

from tests.paths import need_shared


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return need_shared()


class AmpArchives:
    """Extracts AmP archives on demand into one temp folder: <tmp>/<zeroshot|fewshot>/<split>/."""

    def __init__(self, src: Path, root: Path) -> None:
        self.src, self.root = src, root

    def split(self, setting: str, name: str) -> Path:
        dest = self.root / setting / name
        if not dest.exists():
            archive = self.src / setting / name / "data.tar.gz"
            if not archive.exists():
                raise FileNotFoundError(archive)
            tmp = dest.with_name(name + ".part")
            tmp.mkdir(parents=True, exist_ok=True)
            with tarfile.open(archive) as tar:
                tar.extractall(tmp, filter="data")
            tmp.rename(dest)
        return dest

    def names(self, setting: str) -> list[str]:
        return sorted(p.parent.name for p in (self.src / setting).glob("*/data.tar.gz"))

    def all(self) -> Path:
        for setting in ("zeroshot", "fewshot"):
            for name in self.names(setting):
                self.split(setting, name)
        return self.root


@pytest.fixture(scope="session")
def amp(tmp_path_factory) -> AmpArchives:
    return AmpArchives(need_shared("amp"), tmp_path_factory.mktemp("amp"))


@pytest.fixture(scope="session")
def amp_dir(amp) -> Path:
    """All AmP archives extracted as <tmp>/<zeroshot|fewshot>/<split-name>/*.jsonl."""
    return amp.all()
