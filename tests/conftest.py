"""Shared fixtures: the reference data root (located by `tests/paths.py`), and AmP archives
extracted to a temp dir.

AmP's licence allows only the compressed archives: they are extracted to a pytest temp
folder, never into the repository.
"""

from __future__ import annotations

import tarfile
import time
from pathlib import Path

import pytest

from tests.helpers import durations
from tests.paths import REPO, need_shared


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


# The modules with the longest tests, longest first (seconds measured on 2 busy cores: the main job
# ~420, `eval all` with data, the image build on a fresh cache ~310, every explained item ~330 in all,
# vLLM ~200, ...). They are collected first, so that the two xdist workers (`--dist loadscope`:
# one module per worker at a time) start on them and the short modules fill in behind.
LONG_FIRST = (
    "tests/client/eval/test_eval_data.py",
    "tests/client/eval/test_eval_e2e.py",
    "tests/logic/explain/test_explain.py",
    "tests/deploy/test_image.py",
    "tests/server/remote/test_remote_vllm.py",
    "tests/packaging/test_wheel.py",
    "tests/client/eval/folio/test_folio_e2e.py",
    "tests/logic/syntax/test_logic_amp_data.py",
    "tests/client/eval/radd/test_radd_generate.py",
    "tests/client/eval/compare/test_compare.py",
    "tests/generators/amp/test_generators_amp_zeroshot.py",
    "tests/logic/provers/test_classic_problems.py",
)


def pytest_collection_modifyitems(config, items) -> None:
    rank = {module: i for i, module in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(LONG_FIRST)))


# --------------------------------------------------------------------------- the durations file

DURATIONS_FILE = REPO / "out" / "test-durations.txt"  # printed by .ci/run after the suite
_STARTED = pytest.StashKey[float]()


def pytest_sessionstart(session) -> None:
    """When the run started: the durations file gives the run's wall time from it."""
    session.config.stash[_STARTED] = time.monotonic()


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """The slowest tests and the run's wall time, to DURATIONS_FILE (by the controller only)."""
    if hasattr(config, "workerinput") or _STARTED not in config.stash:
        return
    durations.write(DURATIONS_FILE, terminalreporter.stats, config.stash[_STARTED], exitstatus,
                    list(config.invocation_params.args))
