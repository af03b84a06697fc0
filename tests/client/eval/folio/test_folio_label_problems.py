"""Why a FOLIO sample has no label (`label_problem`, a closed set; per run a table of reasons with
counts and one example each), the symbol-kind rule in scoring (`--symbols`), and the voting
rule (`--vote majority|drop-errors`) recorded in run.json and printed with the accuracy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ambit.client.eval.folio import report as FR
from ambit.client.eval.folio import score as S

from tests.helpers.folio import run_folio as _run, write_jsonl as _jsonl, write_split as _split

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

ROW = {"story_id": "s", "example_id": "e1", "label": "False", "conclusion": "Greyhound is not an airline.",
       "premises": ["Greyhound is an airline.", "No bus company is an airline."],
       "premises-FOL": ["Airline(greyhound)", "∀x (BusCompany(x) → ¬Airline(x))"],
       "conclusion-FOL": "¬Airline(greyhound)"}
ROW2 = {**ROW, "example_id": "e2", "label": "True", "conclusion": "Greyhound is an airline.",
        "conclusion-FOL": "Airline(greyhound)"}


def _sample(premises, conclusion="¬Airline(greyhound)"):
    return {"premises": premises, "conclusion": conclusion}


SAMPLES = [
    _sample(ROW["premises-FOL"]),  # False: right
    _sample(["Airline(greyhound)", "∀x (greyhound(x) → ¬Airline(x))"]),  # symbol_kind
    _sample(["Airline(greyhound", ROW["premises-FOL"][1]]),  # syntax
    _sample(["Airline(greyhound)", "¬Airline(greyhound)"]),  # inconsistent_premises
    {"premises": None, "conclusion": None, "error": "the model gave no program"},  # no_translation
]


def test_label_problems_votes_and_symbols(tmp_path: Path):
    root = _split(tmp_path, [ROW, ROW2])
    # e2: every sample fails, so no vote: wrong under drop-errors, and under majority as well
    bad = [SAMPLES[1], SAMPLES[2]]
    f = _jsonl(tmp_path / "t.jsonl", [{"example_id": "e1", "samples": SAMPLES},
                                      {"example_id": "e2", "samples": [{**b, "conclusion": "Airline(greyhound)"}
                                                                       for b in bad]}])
    s, recs, out = _run(tmp_path, root, "d", "--translations", str(f), "--vote", "drop-errors")
    got = [x.get("label_problem") for x in recs[0]["samples"]]
    assert got == [None, "symbol_kind", "syntax", "inconsistent_premises", "no_translation"]
    assert set(got) - {None} <= set(S.LABEL_PROBLEMS)
    sk = recs[0]["samples"][1]
    assert sk["label"] is None and "'greyhound'" in sk["label_error"] and "premises[1]" in sk["label_error"]
    table = s["label_problems"]
    assert table["symbol_kind"]["count"] == 2 and table["syntax"]["count"] == 2
    assert table["symbol_kind"]["example"] == {"id": "e1", "sample": 1, "error": sk["label_error"]}
    assert table["inconsistent_premises"]["count"] == 1 and table["no_translation"]["count"] == 1
    assert list(table) == [k for k in S.LABEL_PROBLEMS if k in table]  # the closed set's order
    assert s["vote"] == "drop-errors" and recs[0]["vote"] == "drop-errors"
    assert recs[0]["voted_label"] == "False" and recs[1]["voted_label"] is None
    assert s["label_accuracy_voted"] == 0.5 and s["voted_examples"] == 2
    run = json.loads((out / "run.json").read_text())
    assert run["vote"] == "drop-errors" and run["symbols"] == "shared" and s["symbols"] == "shared"
    md = (out / "summary.md").read_text()
    assert "## Why samples have no label" in md and "symbol_kind" in md and "label accuracy (vote: drop-errors)" in md

    # separate name spaces: the symbol-kind sample gets its label (premises say nothing of greyhound(x))
    s2, recs2, out2 = _run(tmp_path, root, "sep", "--translations", str(f), "--symbols", "separate")
    assert recs2[0]["samples"][1]["label"] == "False" and recs2[0]["samples"][1].get("label_problem") is None
    assert "symbol_kind" not in s2["label_problems"] and s2["vote"] == "majority"
    assert json.loads((out2 / "run.json").read_text())["symbols"] == "separate"


def test_a_time_limit_and_memory_are_told_apart():
    class D:
        def __init__(self, verdict, reason=None):
            self.verdict, self.reason = verdict, reason

    assert S._verdict_problem(D("UNKNOWN", "memory_limit")) == "memory"
    assert S._verdict_problem(D("UNKNOWN", "inference_limit")) == "time_limit"
    assert S._verdict_problem(D("INCONSISTENT")) == "inconsistent_premises"
    assert S._verdict_problem(D("TRUE")) is None


def test_vote_rules():
    assert S.vote([None, "True", "False", "True"], "drop-errors") == "True"
    assert S.vote([None, "UNKNOWN"], "drop-errors") is None
    # contradictory premises: Prover9 proves the conclusion, so such a sample votes True there
    assert S.vote([None, "INCONSISTENT", "UNKNOWN"], "drop-errors") == "True"
    assert S.vote(["INCONSISTENT", "False", "INCONSISTENT"], "drop-errors") == "True"
    assert S.vote(["INCONSISTENT", "False"], "majority") == "False"
    assert S.vote(["False", "True"]) == "False"  # a tie: the earliest sample's label
    with pytest.raises(ValueError, match="vote rule must be one of majority, drop-errors"):
        S.vote(["True"], "plurality")


def test_nltk_samples_read_as_the_prover9_pipeline_reads_them(tmp_path: Path):
    """`--from nltk`: numerals and list terms read (Prover9 reads them), a name used as predicate
    and constant refused (Prover9 refuses it); `--from prover9` reads LADR's syntax."""
    row = {"story_id": "s", "example_id": "e1", "label": "True", "conclusion": "Greyhound earned money.",
           "premises": ["Greyhound earned 42.3 billion.", "Greyhound serves Boston and Maine."],
           "premises-FOL": ["Earned(greyhound, n42_3billion)", "Serves(greyhound, boston) ∧ Serves(greyhound, maine)"],
           "conclusion-FOL": "∃x Earned(greyhound, x)"}
    root = _split(tmp_path, [row])
    nltk = [{"premises": ["Earned(greyhound, 42.3billion)", "Serves(greyhound, [boston, maine])"],
             "conclusion": "exists x.Earned(greyhound, x)"},
            {"premises": ["Earned(greyhound, 42.3billion)", "all x.(greyhound(x) -> Bus(x))"],
             "conclusion": "exists x.Earned(greyhound, x)"}]
    f = _jsonl(tmp_path / "n.jsonl", [{"example_id": "e1", "samples": nltk}])
    s, recs, out = _run(tmp_path, root, "n", "--translations", str(f), "--from", "nltk", "--vote", "drop-errors")
    first, second = recs[0]["samples"]
    assert first["label"] == "True" and first.get("label_problem") is None
    assert second["label_problem"] == "symbol_kind" and recs[0]["dialect"] == "nltk"
    assert recs[0]["voted_label"] == "True" and s["label_accuracy_voted"] == 1.0
    assert json.loads((out / "run.json").read_text())["dialect"] == "nltk"
    p9 = [{"premises": ["earned(greyhound, 42.3billion).", "serves(greyhound, [boston, maine])"],
           "conclusion": "exists x earned(greyhound, x)"}]
    g = _jsonl(tmp_path / "p.jsonl", [{"example_id": "e1", "samples": p9}])
    _, recs2, _ = _run(tmp_path, root, "p", "--translations", str(g), "--from", "prover9")
    assert recs2[0]["samples"][0]["label"] == "True" and recs2[0]["dialect"] == "prover9"


def test_the_vote_rules_count_different_examples(tmp_path: Path):
    """majority counts the examples with a scored sample; drop-errors counts every example, and one
    with no labelled sample is wrong."""
    from tests.helpers.folio import run_rows
    from ambit.generators.folio import stories

    rows = stories(6, seed=2)
    for r in rows[:2]:
        del r["conclusion-FOL"]  # the oracle cannot label these two
    m, _ = run_rows(tmp_path / "m", rows, "--oracle-translations")
    d, out = run_rows(tmp_path / "d", rows, "--oracle-translations", "--vote", "drop-errors")
    assert m["vote"] == "majority" and m["voted_examples"] == 4
    assert d["vote"] == "drop-errors" and d["voted_examples"] == 6
    assert d["label_accuracy_voted"] == m["label_accuracy_voted"] * 4 / 6
    assert "(voted " in FR.headline(d) and "drop-errors" in FR.headline(d)
