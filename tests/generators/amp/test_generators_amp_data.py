"""Every ambiguous item of AmP's released evaluation files is generated, with the same two
readings (canonically equal LF0 and LF1).

AmP's licence allows only its compressed archives: the `*_eval.jsonl` members are extracted to
a pytest temp folder, never into the repository. Tests skip when ../shared/data is absent.
"""

from __future__ import annotations

import json
import tarfile
from functools import cache
from pathlib import Path

import pytest

from ambit import logic
from ambit.generators.amp import AMBIGUOUS_TYPES, pairs
from tests.paths import need_shared

AMP_TYPE_TO_NAME = {"pp": "pp", "scope": "scope", "scope_reverse": "revscope", "bound": "bound", "conj": "conj"}


def _extract(tmp_path_factory, setting: str) -> Path:
    src = need_shared(f"amp/{setting}")
    out = tmp_path_factory.mktemp(f"amp-{setting}")
    for archive in sorted(src.glob("*/data.tar.gz")):
        dest = out / archive.parent.name
        dest.mkdir()
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.isfile() and m.name.endswith("_eval.jsonl")]
            tar.extractall(dest, members=members, filter="data")
    return out


@pytest.fixture(scope="session")
def amp_zeroshot_eval(tmp_path_factory) -> Path:
    return _extract(tmp_path_factory, "zeroshot")


@pytest.fixture(scope="session")
def amp_fewshot_eval(tmp_path_factory) -> Path:
    return _extract(tmp_path_factory, "fewshot")


@cache
def _generated(name: str) -> dict[str, dict]:
    """surface -> our pair record (LFs as filled in, FOL)."""
    return {p["surface"]: p for p in pairs(name)}


@cache
def _canonical(name: str, surface: str, fmt: str) -> tuple[str, str]:
    """Our (LF0, LF1) for one utterance, canonical, in `fmt`."""
    p = _generated(name)[surface]
    return logic.canonical_form(p["lf0"], "fol", to=fmt), logic.canonical_form(p["lf1"], "fol", to=fmt)


def _check(files: list[Path]) -> dict[str, int]:
    """Compare every distinct (type, surface, template_idx, lf) row; returns items per type."""
    assert files, "no evaluation files found in the archives"
    rows = {}
    for path in files:
        fmt = "lisp" if path.parent.name.endswith("_lisp") else "fol"
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                r = json.loads(line)
                rows[(fmt, r["type"], r["surface"], r["template_idx"], r["lf"])] = None
    surfaces: dict[str, set[str]] = {}
    missing, wrong = [], []
    for fmt, amp_type, surface, idx, lf in rows:
        name = AMP_TYPE_TO_NAME[amp_type]
        gen = _generated(name)
        if surface not in gen:
            missing.append((amp_type, surface))
            continue
        surfaces.setdefault(name, set()).add(surface)
        ours = _canonical(name, surface, fmt)[idx]
        if logic.canonical_form(lf, fmt) != ours:
            wrong.append((fmt, amp_type, surface, idx, lf))
    assert not missing, f"{len(missing)} AmP utterances not generated, e.g. {missing[:3]}"
    assert not wrong, f"{len(wrong)} AmP LFs differ from ours, e.g. {wrong[:3]}"
    return {name: len(s) for name, s in surfaces.items()}


def test_zeroshot_eval_items_are_generated(amp_zeroshot_eval):
    files = sorted(amp_zeroshot_eval.glob("*/dev_eval.jsonl")) + sorted(amp_zeroshot_eval.glob("*/test_eval.jsonl"))
    counts = _check(files)
    assert set(counts) == set(AMBIGUOUS_TYPES)
    assert all(n > 100 for n in counts.values()), counts


@pytest.mark.slow
def test_fewshot_eval_items_are_generated(amp_fewshot_eval):
    files = sorted(amp_fewshot_eval.glob("*/*_eval.jsonl"))
    assert {p.name for p in files} == {"train_eval.jsonl", "dev_eval.jsonl", "test_eval.jsonl"}
    assert any(p.parent.name.endswith("_lisp") for p in files)
    counts = _check(files)
    assert set(counts) == set(AMBIGUOUS_TYPES)
