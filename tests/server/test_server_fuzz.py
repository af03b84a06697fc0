"""A slice of the fuzzing campaign (`benchmarks/fuzz_server.py`) against a real server on
localhost: random and mutated requests for every RPC (most reaching Prolog), the attack
scenarios, then the campaign's targets."""

from __future__ import annotations

import importlib.util

import pytest

from tests.paths import REPO

pytest.importorskip("hypothesis")


def _fuzz_module():
    spec = importlib.util.spec_from_file_location("fuzz_server", REPO / "benchmarks" / "fuzz_server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fuzz_slice_meets_the_targets():
    fuzz = _fuzz_module()
    report = fuzz.run(cases=400, seed=7)
    assert report["cases"] == 400
    assert report["crashes"] == 0, report["crash_examples"]
    assert report["undocumented"] == 0, report["undocumented_examples"]
    assert report["late"] == 0, report["late_examples"]
    assert report["alive"], report["alive_after"]
    assert report["rss_ratio"] <= 1.2
    assert report["statuses"].get("INVALID_ARGUMENT", 0) > 0 and report["wire_rejected"] > 0
    assert report["internal"] == 0 and report["reached_prolog_share"] >= 0.5
    assert report["scenarios"]["ok"], report["scenarios"]
    assert fuzz.targets_met(report)
