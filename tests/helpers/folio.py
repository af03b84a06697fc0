"""Runs of `ambit eval folio` over rows written to a temporary data folder: shared by the FOLIO
recorded, report and label-problem tests."""

from __future__ import annotations

import json
from pathlib import Path

from ambit.client.eval import cli
from ambit.client.eval.folio import data as D


def write_split(tmp_path: Path, rows: list[dict], split: str = "dev") -> Path:
    """A data root under tmp_path holding `rows` as FOLIO's `split`; the root."""
    root = tmp_path / "data"
    (root / "folio").mkdir(parents=True, exist_ok=True)
    D.split_path(root, split).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return root


def write_jsonl(path: Path, lines: list[dict]) -> Path:
    """`lines` as JSON lines at `path`; the path."""
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    return path


def run_folio(tmp_path: Path, root: Path, name: str, *extra: str) -> tuple[dict, list[dict], Path]:
    """`ambit eval folio --split dev` over `root` into tmp_path/name: (summary, records, out folder)."""
    out = tmp_path / name
    assert cli.main(["folio", "--split", "dev", "--data", str(root), "--out", str(out), *extra]) == 0
    return (json.loads((out / "summary.json").read_text()),
            [json.loads(l) for l in (out / "results.jsonl").read_text().splitlines()], out)


def run_rows(tmp_path: Path, rows: list[dict], *extra: str) -> tuple[dict, Path]:
    """`ambit eval folio --split gen` over `rows` written under tmp_path: (summary, out folder)."""
    root = tmp_path / "data"
    (root / "folio").mkdir(parents=True, exist_ok=True)
    (root / "folio" / "folio-gen.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    out = tmp_path / ("o" + "".join(extra).replace("-", ""))
    assert cli.main(["folio", "--split", "gen", "--data", str(root), "--out", str(out), *extra]) == 0
    return json.loads((out / "summary.json").read_text()), out
