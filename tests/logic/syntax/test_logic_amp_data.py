"""Every LF in every AmP archive parses and round-trips; FOL and Lisp twins canonicalise alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambit import logic


def rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def split_files(amp_dir: Path, pattern: str = "*.jsonl") -> list[Path]:
    return sorted(amp_dir.glob(f"*/*/{pattern}"))


def fmt_of(path: Path) -> str:
    return "lisp" if path.parent.name.endswith("_lisp") else "fol"


def check_file(path: Path, seen: set | None = None) -> int:
    """The rows of `path` read (every LF parses and round-trips); an LF text already in `seen`
    (checked in an earlier file: the splits share most of their rows) is counted, not read again."""
    fmt = fmt_of(path)
    n = 0
    for lineno, row in enumerate(rows(path), start=1):
        if seen is not None:
            if (fmt, row["lf"]) in seen:
                n += 1
                continue
            seen.add((fmt, row["lf"]))
        try:
            f = logic.parse(row["lf"], fmt)
        except logic.LFParseError as e:  # pragma: no cover - the failure message is the point
            pytest.fail(f"{path}:{lineno}: {e}")
        assert logic.parse(logic.render(f, fmt), fmt) == f, f"{path}:{lineno}"
        n += 1
    return n


def check_aligned(fol_dir: Path, seen: set | None = None) -> int:
    """The aligned rows of a fol split and its lisp twin (each pair of LFs has one canonical form);
    a pair of texts already in `seen` is counted, not canonicalised again."""
    lisp_dir = fol_dir.with_name(fol_dir.name[: -len("_fol")] + "_lisp")
    n = 0
    for fol_file in sorted(fol_dir.glob("*.jsonl")):
        a, b = rows(fol_file), rows(lisp_dir / fol_file.name)
        assert len(a) == len(b), fol_file.name
        for i, (ra, rb) in enumerate(zip(a, b), start=1):
            if seen is not None:
                if (ra["lf"], rb["lf"]) in seen:
                    n += 1
                    continue
                seen.add((ra["lf"], rb["lf"]))
            ca = logic.canonical_form(ra["lf"], "fol")
            cb = logic.canonical_form(rb["lf"], "lisp", to="fol")
            assert ca == cb, f"{fol_file.parent.name}/{fol_file.name} row {i}: {ca} != {cb}"
            n += 1
    return n


def test_zeroshot_eval_files_parse_and_round_trip(amp):
    files = [p for name in amp.names("zeroshot") for p in sorted(amp.split("zeroshot", name).glob("*_eval.jsonl"))]
    assert len(files) == 15
    assert sum(check_file(p) for p in files) == 5 * 800


def test_aligned_test_eval_twins_share_canonical_form(amp):
    fol = amp.split("fewshot", "50-50-5k-train-100-perc-ambig_fol")
    amp.split("fewshot", "50-50-5k-train-100-perc-ambig_lisp")
    lisp_rows = rows(fol.with_name("50-50-5k-train-100-perc-ambig_lisp") / "test_eval.jsonl")
    for i, (a, b) in enumerate(zip(rows(fol / "test_eval.jsonl"), lisp_rows), start=1):
        assert logic.canonical_form(a["lf"], "fol") == logic.canonical_form(b["lf"], "lisp", to="fol"), f"row {i}"


@pytest.mark.slow
def test_every_lf_in_every_archive_parses_and_round_trips(amp_dir):
    files = split_files(amp_dir)
    assert len(files) >= 29 * 5
    seen: set = set()  # 615,668 rows hold 86,737 distinct (format, LF) texts: each is read once
    total = sum(check_file(p, seen) for p in files)
    assert total > 600_000 and len(seen) > 80_000


@pytest.mark.slow
def test_every_aligned_fol_lisp_row_shares_canonical_form(amp_dir):
    dirs = sorted(d for d in (amp_dir / "fewshot").iterdir() if d.name.endswith("_fol"))
    assert len(dirs) == 12
    seen: set = set()
    assert sum(check_aligned(d, seen) for d in dirs) > 200_000


def test_amp_lisp_files_are_already_canonical_in_operand_order(amp):
    """AmP's few-shot Lisp files hold its own canonical rendering (operands sorted by
    `pred[args]`): re-canonicalising them keeps every atom where AmP put it."""
    path = amp.split("fewshot", "50-50-5k-train-100-perc-ambig_lisp") / "test_eval.jsonl"
    preds = lambda s: [t for t in s.split() if t.replace("_", "").isalpha() and t.islower() and len(t) > 1]  # noqa: E731
    for row in rows(path):
        if "OR" in row["lf"]:
            continue  # AmP orders operator subtrees by node id, we by content
        ours = logic.canonical_form(row["lf"], "lisp")
        assert preds(ours) == preds(row["lf"]), row["lf"]
