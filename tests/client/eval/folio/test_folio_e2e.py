"""End to end: `client eval folio --limit 5` on FOLIO's train split with the default model
(embedded engine, constrained decoding, the prover). Slow: about 8 minutes on 2 busy CPUs.
The labels are poor with a 135M model; the plumbing and the contracts are what is checked."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ambit.client.eval.folio import grammar as G
from tests.paths import REPO
from tests.paths import SHARED_DATA as DATA


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_folio_limit_5_default_model(tmp_path):
    if not (DATA / "folio" / "folio-train.jsonl").exists():
        pytest.skip(f"FOLIO train split absent under {DATA}")
    out = tmp_path / "folio"
    r = subprocess.run([sys.executable, "-m", "ambit", "eval", "folio", "--limit", "5", "--data", str(DATA),
                        "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=1750)
    assert r.returncode == 0, r.stderr[-4000:]
    s = json.loads((out / "summary.json").read_text())
    for k in ("label_accuracy", "label_accuracy_voted", "sentence_equivalence_rate", "right_label_wrong_translation",
              "syntax_errors", "unknown"):
        assert k in s
    assert s["mode"] == "translate" and s["stories"] == 5 and s["split"] == "train"
    assert s["out_of_grammar"] == 0 and s["syntax_errors"] == 0  # constrained decoding
    assert (out / "summary.md").exists() and (out / "folio.png").stat().st_size > 0
    records = [json.loads(l) for l in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == 5
    for rec in records:
        assert isinstance(rec["agrees"], bool) and rec["model_id"]
        assert rec["story_id"] not in rec["demo_story_ids"] and len(rec["demos"]) == 2
        (sample,) = rec["samples"]
        assert len(sample["sentences"]) == len(rec["sentences"])
        for x in sample["sentences"]:
            if x["finished"]:
                assert x["in_grammar"] and x["parses"] and x["text"] == G.to_folio(x["raw"])
        assert sample["label"] in (None, "True", "False", "Uncertain", "INCONSISTENT", "UNKNOWN")
