"""Every Prolog program in logic/engine/prolog/ has plunit tests (tests/logic/prolog/test_<name>.pl),
and they pass in plain swipl."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted(p.stem for p in (ROOT / "src" / "ambit" / "logic" / "engine" / "prolog").glob("*.pl"))
TESTS = Path(__file__).with_name("prolog")


def test_every_program_has_plunit_tests():
    missing = [name for name in PROGRAMS if not (TESTS / f"test_{name}.pl").exists()]
    assert not missing, f"no plunit tests for: {', '.join(missing)}"


@pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")
@pytest.mark.parametrize("name", PROGRAMS)
def test_plunit_passes(name):
    p = subprocess.run(["swipl", "-g", "run_tests", "-t", "halt", str(TESTS / f"test_{name}.pl")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
