"""`ambit eval folio --translations FILE`: another system's recorded translations scored without a
model, in ambit's JSONL and in Logic-LM's logic-program format; pairing sentences with formulas;
failed samples, parse errors that name formula, position and reason; voting; the executable
rate; the E/Z3 cross-check; and (slow, when present) Logic-LM's released programs."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from ambit import logic
from ambit.client.eval import cli
from ambit.client.eval.folio import align as A
from ambit.client.eval.folio import data as D
from ambit.client.eval.folio import recorded as REC
from ambit.generators.folio import stories


from tests.helpers.folio import run_folio as _run, write_jsonl as _jsonl, write_split as _split  # noqa: E402


def _program(row: dict, order: list[int] | None = None, extra: str | None = None) -> str:
    """A Logic-LM program for a row: premises in `order`, each with its sentence as `:::`
    comment, an optional extra premise, the conclusion."""
    idx = order or list(range(len(row["premises"])))
    prem = [f"{row['premises-FOL'][i]} ::: {row['premises'][i]}" for i in idx]
    if extra:
        prem.append(f"{extra} ::: (an extra formula)")
    preds = "Predicates:\nDog(x) ::: x is a dog.\n"
    return f"{preds}Premises:\n" + "\n".join(prem) + f"\nConclusion:\n{row['conclusion-FOL']} ::: {row['conclusion']}"


# --------------------------------------------------------------------------- pairing


def test_pairing_by_order_comment_text_or_unpaired_one_to_one():
    sents = ["All dogs bark.", "Rex is a dog.", "Cats purr."]
    assert A.pair_sentences(sents, [(None, None)] * 3) == [(0, "order"), (1, "order"), (2, "order")]
    got = A.pair_sentences(sents, [("rex is a dog", None), (None, "All  dogs bark!"), ("Rex is a dog.", None),
                                   (None, None)])
    assert got == [(1, "comment"), (0, "text"), (None, "unpaired"), (None, "unpaired")]


# --------------------------------------------------------------------------- ambit's JSONL


def test_ambit_jsonl_scores_like_the_oracle_with_failed_and_unparseable_samples(tmp_path):
    rows = stories(12, seed=2, noise=0.25)
    root = _split(tmp_path, rows)
    lines = []
    for r in rows:
        gold = {"premises": r["premises-FOL"], "conclusion": r["conclusion-FOL"]}
        lines.append({"example_id": r["example_id"], "dialect": "folio",
                      "samples": [gold, {"premises": None, "conclusion": None, "error": "timeout"}, gold]})
    bad = rows[0]["premises-FOL"][0] + " ∧"
    lines[0]["samples"][2] = {"premises": [bad, *rows[0]["premises-FOL"][1:]], "conclusion": rows[0]["conclusion-FOL"]}
    f = _jsonl(tmp_path / "t.jsonl", lines)
    s, recs, out = _run(tmp_path, root, "rec", "--translations", str(f))
    o, _, _ = _run(tmp_path, root, "oracle", "--oracle-translations")
    assert s["mode"] == "recorded" and s["translations_format"] == "ambit"
    n = len(rows)
    assert s["samples"] == 3 * n and s["executable_samples"] == 2 * n - 1
    assert s["executable_rate"] == (2 * n - 1) / (3 * n)
    assert s["failed_samples"] == n
    # failed and unparseable samples count as wrong labels; the vote ignores them, as LINC's did
    assert s["label_accuracy_voted"] == o["label_accuracy"] == o["label_accuracy_voted"]
    assert s["label_accuracy_executable"] == pytest.approx(
        sum(x["correct"] for r in recs for x in r["samples"] if x["executable"]) / (2 * n - 1))
    (err,) = s["parse_errors"]
    assert err["id"] == rows[0]["example_id"] and err["sample"] == 2 and err["formula"] == "premises[0]"
    # the dangling "∧" at the end: the reader names the operator (or the end right after it)
    assert err["position"] in (len(bad) - 1, len(bad)) and f"character {err['position'] + 1}" in err["reason"]
    md = (out / "summary.md").read_text()
    assert "Formulas that do not parse" in md and "premises[0]" in md and "executable" in md
    failed = next(r for r in recs if r["id"] == rows[1]["example_id"])["samples"][1]
    assert failed["error"] == "timeout" and failed["label"] is None and not failed["executable"]


def test_nltk_dialect_and_sentences_given_with_formulas(tmp_path):
    rows = stories(6, seed=7)
    root = _split(tmp_path, rows)
    lines = []
    for r in rows:
        prem = [{"formula": logic.convert(g, "folio", "nltk"), "sentence": t}
                for g, t in zip(r["premises-FOL"], r["premises"])]
        random.Random(1).shuffle(prem)
        prem.append({"formula": "all x.(Extra(x) -> Extra(x))"})  # one formula more than sentences
        lines.append({"example_id": r["example_id"], "dialect": "nltk",
                      "samples": [{"premises": prem,
                                   "conclusion": logic.convert(r["conclusion-FOL"], "folio", "nltk")}]})
    s, recs, _ = _run(tmp_path, root, "rec", "--translations", str(_jsonl(tmp_path / "t.jsonl", lines)))
    assert s["pairing"] == {"order": 0, "comment": 0, "text": sum(len(r["premises"]) for r in rows),
                            "unpaired": len(rows)}
    assert s["sentence_equivalence_rate"] == 1.0 and s["label_accuracy"] == 1.0 and s["executable_rate"] == 1.0
    for r in recs:
        for x in r["samples"][0]["sentences"]:
            assert (x["relation"] == "EQUIVALENT") == (x["paired_by"] != "unpaired")


# --------------------------------------------------------------------------- Logic-LM


def test_logic_lm_programs_are_detected_paired_by_comment_and_a_broken_program_fails(tmp_path):
    rows = stories(8, seed=11)
    root = _split(tmp_path, rows)
    progs = []
    for i, r in enumerate(rows):
        order = list(reversed(range(len(r["premises"]))))
        progs.append({"id": f"FOLIO_dev_{r['example_id']}", "raw_logic_programs": [
            _program(r, order, extra="∀x (Extra(x) → Extra(x))" if i % 2 == 0 else None)]})
    progs[1]["raw_logic_programs"] = ["Premises:\nDog(rex) ::: Rex is a dog."]  # no Conclusion section
    f = tmp_path / "FOLIO_dev_x.json"
    f.write_text(json.dumps(progs, ensure_ascii=False))
    s, recs, _ = _run(tmp_path, root, "ll", "--translations", str(f))
    assert s["translations_format"] == "logic-lm"
    odd = [r for i, r in enumerate(rows) if i % 2 and i != 1]
    even = [r for i, r in enumerate(rows) if i % 2 == 0]
    assert s["pairing"]["order"] == sum(len(r["premises"]) for r in odd)  # counts equal: by order
    assert s["pairing"]["comment"] == sum(len(r["premises"]) for r in even)
    assert s["pairing"]["unpaired"] == len(even)
    assert s["failed_samples"] == 1 and s["executable_samples"] == len(rows) - 1
    broken = next(r for r in recs if r["id"] == rows[1]["example_id"])["samples"][0]
    assert broken["error"] == "no 'Conclusion:' section"
    # reversed premises paired by order are other sentences: not all EQUIVALENT; by comment they are
    for i, r in enumerate(rows):
        rec = next(x for x in recs if x["id"] == r["example_id"])
        rel = [x["relation"] for x in rec["samples"][0]["sentences"] if x["paired_by"] == "comment"]
        assert all(x == "EQUIVALENT" for x in rel)
        if i % 2 == 0:
            assert rec["samples"][0]["label"] == r["label"]


def test_program_sample_reads_sections_like_logic_lm():
    s = REC.program_sample("Predicates:\nP(x) ::: x is p\nPremises:\nP(a) ::: A is p.\n\n∀x (P(x) → Q(x))\n"
                           "Conclusion:\nQ(a) ::: A is q.\nextra line")
    assert s == {"premises": [{"formula": "P(a)", "comment": "A is p."}, {"formula": "∀x (P(x) → Q(x))"}],
                 "conclusion": {"formula": "Q(a)", "comment": "A is q."}, "error": None}


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("line, message", [
    ({"dialect": "folio", "samples": []}, r"t.jsonl:1: missing field 'example_id'"),
    ({"example_id": "0", "samples": []}, r"t.jsonl:1: field 'samples' must be a non-empty list"),
    ({"example_id": "0", "dialect": "ladr", "samples": [{}]}, r"t.jsonl:1: field 'dialect' must be one of"),
    ({"example_id": "0", "samples": [{"premises": ["P(a)"], "conclusion": None}]},
     r"t.jsonl:1: samples\[0\]: 'premises' and 'conclusion' are both given or both null"),
    ({"example_id": "0", "samples": [{"premises": [3], "conclusion": "P(a)"}]}, r"samples\[0\]: premises\[0\] must be"),
])
def test_malformed_translation_lines_name_line_and_field(tmp_path, line, message):
    with pytest.raises(ValueError, match=message):
        REC.read(_jsonl(tmp_path / "t.jsonl", [line]))


def test_unknown_ids_duplicates_and_conflicting_modes_are_errors(tmp_path, capsys):
    rows = stories(3, seed=1)
    root = _split(tmp_path, rows)
    ok = {"samples": [{"premises": None, "conclusion": None}]}
    f = _jsonl(tmp_path / "t.jsonl", [{"example_id": "nope", **ok}])
    assert cli.main(["folio", "--split", "dev", "--data", str(root), "--out", str(tmp_path / "o"),
                     "--translations", str(f)]) == 2
    err = capsys.readouterr().err
    assert "none of its lines matches an item of this run (3 items)" in err and "shaped like 'nope'" in err
    assert not (tmp_path / "o").exists()  # nothing written
    f = _jsonl(tmp_path / "t.jsonl", [{"example_id": rows[0]["example_id"], **ok}] * 2)
    with pytest.raises(ValueError, match=r"t.jsonl:2: example_id .* again \(first at .*t.jsonl:1\)"):
        REC.read(f)
    assert cli.main(["folio", "--split", "dev", "--data", str(root), "--out", str(tmp_path / "o2"),
                     "--translations", str(f), "--audit-gold"]) == 2
    assert "--audit-gold and --translations are different runs" in capsys.readouterr().err


def test_examples_missing_from_the_file_count_as_failed_samples(tmp_path):
    rows = stories(4, seed=5)
    root = _split(tmp_path, rows)
    r = rows[0]
    f = _jsonl(tmp_path / "t.jsonl", [{"example_id": r["example_id"], "samples": [
        {"premises": r["premises-FOL"], "conclusion": r["conclusion-FOL"]}]}])
    s, recs, _ = _run(tmp_path, root, "o", "--translations", str(f), "--allow-partial")
    assert s["examples_without_translations"] == len(rows) - 1
    assert s["coverage"]["scored"] == 1 and s["coverage"]["missing"] == len(rows) - 1
    assert s["executable_samples"] == 1 and s["samples"] == len(rows)


# --------------------------------------------------------------------------- cross-check


def test_cross_check_with_e_and_z3_finds_no_contradiction(tmp_path):
    from ambit.logic.provers import eprover
    from ambit.logic.provers import z3_prover

    if not (eprover.available() and z3_prover.available()):
        pytest.skip("E (eprover) or Z3 (z3-solver) is not installed")
    rows = stories(6, seed=12)
    root = _split(tmp_path, rows)
    f = _jsonl(tmp_path / "t.jsonl", [{"example_id": r["example_id"], "samples": [
        {"premises": r["premises-FOL"], "conclusion": r["conclusion-FOL"]}]} for r in rows])
    s, _, _ = _run(tmp_path, root, "x", "--translations", str(f), "--cross-check")
    cc = s["cross_check"]
    assert cc["labels"] == len(rows) and cc["contradicted"] == []
    for name in ("eprover", "z3"):
        assert cc["provers"][name]["contradicted"] == 0
        assert cc["provers"][name]["confirmed"] + cc["provers"][name]["undecided"] == len(rows)
        assert cc["provers"][name]["confirmed"] > 0


# --------------------------------------------------------------------------- Logic-LM's released programs


def _released() -> tuple[Path, Path]:
    folio, logiclm = os.environ.get("AMBIT_FOLIO_DIR"), os.environ.get("AMBIT_LOGICLM_DIR")
    if not folio or not logiclm:
        pytest.skip("set AMBIT_FOLIO_DIR (FOLIO checkout) and AMBIT_LOGICLM_DIR (Logic-LLM checkout) to run this")
    val = next((p for p in (Path(folio) / "data" / "v0.0" / "folio-validation.jsonl",
                            Path(folio) / "folio" / "folio-validation.jsonl") if p.exists()), None)
    progs = next((p for p in (Path(logiclm) / "outputs" / "logic_programs", Path(logiclm)) if
                  (p / "FOLIO_dev_gpt-4.json").exists()), None)
    if val is None or progs is None:
        pytest.skip(f"folio-validation.jsonl under {folio} or FOLIO_dev_gpt-4.json under {logiclm} is absent")
    return val, progs


@pytest.mark.slow
@pytest.mark.parametrize("model", ["gpt-4", "gpt-3.5-turbo", "text-davinci-003"])
def test_logic_lm_released_programs(tmp_path, model):
    val, progs = _released()
    root = tmp_path / "data"
    (root / "folio").mkdir(parents=True)
    (root / "folio" / "folio-validation.jsonl").write_bytes(val.read_bytes())
    out = tmp_path / "o"
    assert cli.main(["folio", "--split", "validation", "--data", str(root), "--out", str(out),
                     "--translations", str(progs / f"FOLIO_dev_{model}.json"), "--cross-check"]) == 0
    s = json.loads((out / "summary.json").read_text())
    assert s["samples"] == 204 and s["executable_rate"] >= 0.93
    assert s["cross_check"]["contradicted"] == []
    assert all(v["contradicted"] == 0 for v in s["cross_check"]["provers"].values())


# --------------------------------------------------------------------------- the logic layer's checks


def test_mixed_arities_and_free_variables(tmp_path):
    r = {"story_id": "s", "example_id": "e1", "label": "True", "conclusion": "Luna is a pet.",
         "premises": ["All who help Mia are pets.", "Luna helps Mia.", "No pet is an athlete."],
         "premises-FOL": ["∀x (Helps(x, mia) → Pet(x))", "Helps(luna, mia)", "∀x (Pet(x) → ¬Athlete(x))"],
         "conclusion-FOL": "Pet(luna)"}
    root = _split(tmp_path, [r])
    free = ["Helps(x, mia) → Pet(x)", *r["premises-FOL"][1:]]  # x bound by no quantifier
    mixed = ["∀x (Helps(x) → Pet(x))", *r["premises-FOL"][1:]]  # Helps/1 beside Helps/2
    f = _jsonl(tmp_path / "t.jsonl", [{"example_id": "e1", "samples": [
        {"premises": free, "conclusion": "Pet(luna)"}, {"premises": mixed, "conclusion": "Pet(luna)"}]}])
    s, recs, _ = _run(tmp_path, root, "u", "--translations", str(f))
    first, second = recs[0]["samples"]
    assert s["free_variables"] == "universal" and s["free_variables_closed"] == 1
    assert first["sentences"][0]["closed"] == ["x"] and first["sentences"][0]["relation"] == "EQUIVALENT"
    assert first["executable"] and first["label"] == "True"
    # the sample uses Helps with one and with two arguments: not executable, both uses named
    assert second["label"] is None and second["label_problem"] == "mixed_arity" and not second["executable"]
    assert "premises[0]" in second["label_error"] and "premises[1]" in second["label_error"]
    # compared with the gold's Helps/2, the unary Helps is another predicate (renamed), not an error
    assert second["alignment"]["renamed"] == {"Helps/1": "Helps_1"}
    assert second["sentences"][0]["relation"] in ("NOT_RELATED", "STRONGER", "WEAKER")
    s2, _, _ = _run(tmp_path, root, "e", "--translations", str(f), "--free-variables", "error")
    assert s2["free_variables"] == "error" and s2["parse_errors"][0]["formula"] == "premises[0]"
    assert "never quantified" in s2["parse_errors"][0]["reason"]
    assert json.loads((tmp_path / "e" / "run.json").read_text())["free_variables"] == "error"
