"""`client eval folio` without a model: loading splits, the decode grammar, prompts, name
alignment, scoring by proof, the vote, the gold audit, oracle translations, resuming."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ambit import logic
from ambit.client.eval import cli
from ambit.client.eval.folio import data as D
from ambit.client.eval.folio import grammar as G
from ambit.client.eval.folio import prompt as P
from ambit.client.eval.folio import score as S
from ambit.generators.folio import perturb, stories


def _root(tmp_path: Path, rows: list[dict], split: str = "gen") -> Path:
    root = tmp_path / "data"
    (root / "folio").mkdir(parents=True, exist_ok=True)
    with open(D.split_path(root, split), "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return root


def _stories(n: int = 30, seed: int = 0, noise: float = 0.0) -> list[D.Story]:
    return [D.story_from_row(r, "gen", str(i)) for i, r in enumerate(stories(n, seed, noise))]


# --------------------------------------------------------------------------- data


def test_missing_split_is_skipped_with_one_line(tmp_path, capsys, monkeypatch):
    # the default data root ($AMBIT_DATA) lacks the default split: skipped with one line, exit 0
    monkeypatch.setenv("AMBIT_DATA", str(tmp_path))
    rc = cli.main(["folio", "--audit-gold", "--out", str(tmp_path / "o")])
    err = [l for l in capsys.readouterr().err.splitlines() if l.startswith("skipped folio")]
    assert rc == 0 and len(err) == 1
    assert str(tmp_path / "folio" / "folio-train.jsonl") in err[0] and "Yale-LILY/FOLIO" in err[0]
    assert not (tmp_path / "o").exists()  # nothing written: no empty folder left behind


@pytest.mark.parametrize("named", [["--split", "nope", "--audit-gold"], ["--demo-split", "nope"]])
def test_a_split_named_on_the_command_line_is_required(tmp_path, capsys, monkeypatch, named):
    # the default data root has the train split, not the one named: exit 2, one line naming the file
    root = _root(tmp_path, stories(3), split="train")
    monkeypatch.setenv("AMBIT_DATA", str(root))
    rc = cli.main(["folio", *named, "--out", str(tmp_path / "o")])
    err = [l for l in capsys.readouterr().err.splitlines() if l.strip()]
    assert rc == 2 and len(err) == 1, err
    assert err[0].startswith(f"error: {named[0]} nope: ") and str(root / "folio" / "folio-nope.jsonl") in err[0]
    assert not (tmp_path / "o").exists()  # the folder this run made is gone: the corrected rerun starts clean


def test_missing_split_under_a_given_data_is_an_error(tmp_path, capsys):
    rc = cli.main(["folio", "--split", "nope", "--audit-gold", "--data", str(tmp_path), "--out", str(tmp_path / "o")])
    err = [l for l in capsys.readouterr().err.splitlines() if l.strip()]
    assert rc == 2 and len(err) == 1 and "folio-nope.jsonl" in err[0], err
    # a folder that was there before the run is left as it was
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "notes.txt").write_text("mine\n")
    assert cli.main(["folio", "--split", "nope", "--audit-gold", "--data", str(tmp_path), "--out",
                     str(tmp_path / "kept")]) == 2
    assert (tmp_path / "kept" / "notes.txt").read_text() == "mine\n"


def test_malformed_rows_name_file_line_and_field(tmp_path):
    path = tmp_path / "folio-x.jsonl"
    good = stories(1)[0]
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "label": "Maybe", "example_id": "b"}) + "\n")
    with pytest.raises(ValueError, match=r"folio-x.jsonl:2: field 'label'.*'Maybe'"):
        D.read_split(path)
    path.write_text(json.dumps({k: v for k, v in good.items() if k != "premises-FOL"}) + "\n")
    with pytest.raises(ValueError, match=r":1: missing field 'premises-FOL'"):
        D.read_split(path)
    path.write_text("{not json\n")
    with pytest.raises(ValueError, match=r":1: not JSON"):
        D.read_split(path)


def test_unknown_label_reads_as_uncertain_and_no_conclusion_fol_is_none():
    row = {**stories(1)[0], "label": "Unknown"}
    del row["conclusion-FOL"]
    s = D.story_from_row(row, "x", "1")
    assert s.label == "Uncertain" and s.conclusion_fol is None and s.gold_fol[-1] is None


# --------------------------------------------------------------------------- grammar


def _flat(f):
    """The AST with nested ∧/∨ chains flattened (the decode grammar's chains nest differently)."""
    t = type(f)
    if t in (logic.And, logic.Or):
        kids = []
        for c in map(_flat, f.children):
            kids.extend(c.children if type(c) is t else (c,))
        return t(tuple(kids))
    if hasattr(f, "body") and t is not logic.Quant:
        return t(_flat(f.body))
    if t is logic.Quant:
        return logic.Quant(f.kind, f.var, _flat(f.body))
    if hasattr(f, "left") and type(f).__name__ != "Eq":
        return t(_flat(f.left), _flat(f.right))
    return f


def _tree_to_ast(tree, bound=()):
    """The decode grammar's Lark tree as an AST, read by this grammar's own rules."""
    from lark import Token

    from ambit.logic.syntax.ast import Atom, Const, Eq, Iff, Implies, Not, Quant, Var, Xor

    def term(tok):
        return Var(str(tok)) if str(tok) in bound else Const(str(tok))

    if isinstance(tree, Token):
        raise AssertionError(tree)
    named = ("PRED", "TERM", "VAR", "QUANT")  # keep_all_tokens: drop the punctuation and connectives
    d, ch = tree.data, [c for c in tree.children if not (isinstance(c, Token) and c.type not in named)]
    if d in ("start", "group"):
        return _tree_to_ast(ch[0], bound)
    if d == "atom":
        return Atom(str(ch[0]), tuple(term(t) for t in ch[1:]))
    if d in ("eq", "neq"):
        e = Eq(term(ch[0]), term(ch[1]))
        return e if d == "eq" else Not(e)
    if d == "neg":
        return Not(_tree_to_ast(ch[0], bound))
    if d == "quant":
        kind = "forall" if str(ch[0]) == "all " else "exists"
        return Quant(kind, str(ch[1]), _tree_to_ast(ch[2], (*bound, str(ch[1]))))
    if d in ("conj", "conj_rest", "disj", "disj_rest"):
        t = logic.And if d.startswith("conj") else logic.Or
        return t(tuple(_tree_to_ast(c, bound) for c in ch))
    return {"xor": Xor, "imp": Implies, "iff": Iff}[d](_tree_to_ast(ch[0], bound), _tree_to_ast(ch[1], bound))


def test_decode_grammar_and_folio_reader_read_the_same_formulas():
    """Every gold formula of the generated stories, written in the decode style: the decode
    grammar accepts it, its tree is the formula, and the folio reader reads its FOLIO spelling
    (`to_folio`) as the same formula."""
    texts = {t for s in _stories(60) for t in s.gold_fol if t}
    extra = ["∀x (A(x) → ∃y (L(x, y) ∧ x ≠ y))", "¬∃x (P(x) ∧ ¬Q(x))", "A(a) ∧ B(b) ∧ ¬∀x (C(x))",
             "(A(a) ↔ B(b)) ⊕ (C(c) → D(d))", "∀x ∃y (R(x, y) ∨ R(y, x) ∨ x = y)"]
    for text in [*texts, *extra]:
        f = logic.parse(text, "folio")
        out = G.render(f)
        assert G.in_grammar(out), out
        folio = G.to_folio(out)
        assert not set(folio) & set("&|!") and "->" not in folio and "xor" not in folio, folio
        assert _flat(_tree_to_ast(G.check(out))) == _flat(logic.parse(folio, "folio")) == _flat(f), (out, folio)


@pytest.mark.parametrize("text", ["all x P(x) -> Q(x)", "A(a) & B(a) | C(a)", "A(a) -> B(a) -> C(a)",
                                  "(all x (P(x))) & Q(a)x", "all x (P(x)) & Q(a)", "P( x)", "P(x)  & Q(x)",
                                  "p(x)", "∀x (P(x))", "A(a) ∧ B(b)"])
def test_decode_grammar_rejects_what_depends_on_precedence_or_scope(text):
    assert not G.in_grammar(text)


def test_render_refuses_names_outside_the_grammar():
    with pytest.raises(ValueError, match="not expressible"):
        G.render(logic.parse("Science-fiction(dune)", "folio"))


# --------------------------------------------------------------------------- prompts


def test_demos_are_seeded_and_never_the_test_story():
    train = _stories(120, seed=3)
    pool = P.demo_pool(train)
    assert len({d.story_id for d in pool}) == len(pool) == len({s.story_id for s in train})
    for s in train[:20]:
        picked = P.pick_demos(pool, s, 3, seed=7)
        assert s.story_id not in {d.story_id for d in picked}
        assert [d.id for d in picked] == [d.id for d in P.pick_demos(pool, s, 3, seed=7)]
    assert len({tuple(d.id for d in P.pick_demos(pool, train[0], 3, seed=s_)) for s_ in range(5)}) > 1
    head = P.header(P.pick_demos(pool, train[0], 2, 0))
    assert "all x (" in head and "∀" not in head
    prompt = P.sentence_prompt(head, [("A b.", "A(b)")], "C d.")
    assert prompt.startswith(P.INSTRUCTION) and prompt.endswith("Sentence: A b.\nFOL: A(b)\nSentence: C d.\nFOL:")
    for line in head.splitlines():
        if line.startswith("FOL: "):
            assert G.in_grammar(line[5:])


def test_too_many_shots_is_a_clear_error():
    train = _stories(6)
    with pytest.raises(ValueError, match="--shots 5: only 1 usable"):
        P.pick_demos(P.demo_pool(train), train[0], 5, 0)


# --------------------------------------------------------------------------- alignment and scoring


@pytest.mark.parametrize("rename,step", [("rename_normalised", "normalised"), ("rename_opaque", "matched")])
def test_renamed_translations_are_equivalent_after_alignment(rename, step):
    rng = random.Random(1)
    for s in _stories(30)[::3]:
        texts, _ = perturb([t for t in s.gold_fol], rng, rename=rename, change_rate=0.0)
        rec = S.score_story(s, [[{"text": t} for t in texts]])
        sample = rec["samples"][0]
        assert {x["relation"] for x in sample["sentences"]} == {"EQUIVALENT"}, (rename, texts)
        assert sample["alignment"]["steps"][step] > 0 and all(x["aligned"] for x in sample["sentences"])
        assert sample["label"] == rec["gold_label"]


def test_relations_follow_the_perturbation():
    rng = random.Random(2)
    expected = {"drop_conjunct": {"WEAKER", "EQUIVALENT"}, "add_conjunct": {"STRONGER", "EQUIVALENT"},
                "negate": {"NOT_RELATED"}, "converse": {"NOT_RELATED", "STRONGER", "WEAKER", "EQUIVALENT"}}
    seen = set()
    for s in _stories(90):
        texts, changes = perturb(list(s.gold_fol), rng, change_rate=0.6)
        rec = S.score_story(s, [[{"text": t} for t in texts]])
        for x, c in zip(rec["samples"][0]["sentences"], changes):
            assert x["relation"] in (expected[c] if c else {"EQUIVALENT"}), (x["text"], c, x["relation"])
            seen.add(x["relation"])
            ev = x["evidence"]
            if x["relation"] != "EQUIVALENT":  # a checked countermodel for the failed direction
                assert ev["equivalence"]["witness"]["model"]["domain"]
    assert {"EQUIVALENT", "WEAKER", "STRONGER", "NOT_RELATED"} <= seen


def test_right_label_wrong_translation_is_counted():
    s = next(x for x in _stories(30) if x.label == "True" and len(x.premises) >= 3 and "∀" in x.premises_fol[0])
    texts = list(s.gold_fol)
    texts[0] = texts[0] + " ∧ Extra(e)"  # a stronger premise: the label survives, the sentence is wrong
    texts[0] = logic.render(logic.parse(texts[0], "folio"), "folio")
    rec = S.score_story(s, [[{"text": t} for t in texts]])
    sample = rec["samples"][0]
    assert sample["correct"] and sample["right_label_wrong_translation"]
    assert sample["sentences"][0]["relation"] in ("STRONGER", "NOT_RELATED")


def test_syntax_errors_leave_the_sample_unlabelled():
    s = _stories(3)[0]
    texts = list(s.gold_fol)
    texts[1] = "∀x (Broken(x)"
    rec = S.score_story(s, [[{"text": t} for t in texts]])
    sample = rec["samples"][0]
    assert sample["label"] is None and not sample["sentences"][1]["parses"] and "error" in sample["sentences"][1]
    assert rec["voted_label"] is None and not rec["voted_correct"]


def test_vote_ignores_inconsistent_unknown_and_unparseable_and_breaks_ties_by_first():
    assert S.vote(["INCONSISTENT", None, "UNKNOWN", "False", "True", "True"]) == "True"
    assert S.vote(["False", "True", None, "True", "False"]) == "False"
    assert S.vote([None, "INCONSISTENT"]) is None


# --------------------------------------------------------------------------- suite runs


def _run(tmp_path, root, *extra) -> dict:
    out = tmp_path / ("o" + "".join(extra).replace("-", ""))
    assert cli.main(["folio", "--split", "gen", "--data", str(root), "--out", str(out), *extra]) == 0
    return {"summary": json.loads((out / "summary.json").read_text()), "out": out,
            "records": [json.loads(l) for l in (out / "results.jsonl").read_text().splitlines()]}


def test_oracle_label_accuracy_equals_audit_agreement_and_every_sentence_is_equivalent(tmp_path):
    rows = stories(90, seed=5, noise=0.2)
    root = _root(tmp_path, rows)
    audit, oracle = _run(tmp_path, root, "--audit-gold"), _run(tmp_path, root, "--oracle-translations")
    a, o = audit["summary"]["audit"], oracle["summary"]
    assert 0 < a["agreement_rate"] < 1 and a["label_checked"] == len(rows)
    assert o["label_accuracy"] == a["agreement_rate"] == o["label_accuracy_voted"]
    assert o["sentence_equivalence_rate"] == 1.0 and o["relations"]["EQUIVALENT"] == o["sentences_with_gold"]
    assert o["sentences_with_gold"] == sum(len(r["premises"]) + 1 for r in rows)
    assert o["syntax_errors"] == 0 and o["unknown"] == {"sentences": 0, "labels": 0}
    assert o["right_label_wrong_translation"] == 0
    noisy = {r["example_id"] for r in rows if r.get("label_noise")}
    assert all(isinstance(r["agrees"], bool) for r in audit["records"])
    assert {r["id"] for r in audit["records"] if not r["agrees"]} == noisy
    assert {d["id"] for d in a["disagreements"]} == noisy
    md = (audit["out"] / "summary.md").read_text()
    assert all(i in md for i in noisy)
    for run in (audit, oracle):
        assert (run["out"] / "folio.png").stat().st_size > 0
    for k in ("label_accuracy", "label_accuracy_voted", "sentence_equivalence_rate", "right_label_wrong_translation",
              "syntax_errors", "unknown"):
        assert k in o


def test_a_rerun_resumes_and_other_arguments_are_refused(tmp_path, capsys):
    root = _root(tmp_path, stories(12))
    first = _run(tmp_path, root, "--oracle-translations")
    mtime = (first["out"] / "results.jsonl").stat().st_mtime_ns
    again = _run(tmp_path, root, "--oracle-translations")
    assert len(again["records"]) == 12 and (first["out"] / "results.jsonl").stat().st_mtime_ns == mtime
    rc = cli.main(["folio", "--split", "gen", "--data", str(root), "--out", str(first["out"]), "--audit-gold"])
    assert rc == 2 and "different arguments" in capsys.readouterr().err


def test_train_split_audit_lists_disagreements_with_evidence(shared_data, tmp_path):
    if not D.split_path(shared_data, "train").exists():
        pytest.skip("FOLIO train split absent")
    train = D.read_split(D.split_path(shared_data, "train"))[:150]
    recs = S.audit_batch(train)
    assert all(isinstance(r["agrees"], bool) and not r["label_checked"] for r in recs)
    bad = [(s, r) for s, r in zip(train, recs) if not r["agrees"]]
    assert bad, "FOLIO's gold formulas are known to be noisy"
    for s, r in bad:
        if r["problem"] == "unparseable":
            assert r["gold_errors"] and all(k.startswith("premises-FOL[") for k in r["gold_errors"])
        elif r["problem"] == "mixed arity":  # one predicate with two arities: both uses named
            assert r["gold_errors"]["arity"].count("premises-FOL[") == 2
        else:  # inconsistent premises come with the refutation, replayed by the prover
            assert r["problem"] == "inconsistent" and r["gold_evidence"]["proof"]


def test_inconsistent_gold_premises_are_refuted_by_the_premises_alone():
    row = {**stories(1)[0], "premises": ["A is.", "Nothing is B.", "c"], "conclusion-FOL": "A(a)",
           "premises-FOL": ["A(a)", "∀x (B(x) ↔ ¬B(x))", "C(c)"], "label": "True"}
    r = S.audit(D.story_from_row(row, "t", "1"))
    assert r["problem"] == "inconsistent" and not r["agrees"] and r["gold_label"] == "INCONSISTENT"
    assert r["gold_evidence"]["premises_used"] == [1] and r["gold_evidence"]["proof"]
    del row["conclusion-FOL"]
    r = S.audit(D.story_from_row(row, "t", "1"))
    assert r["problem"] == "inconsistent" and r["gold_evidence"]["premises_used"] == [1]
    row["premises-FOL"][1] = "∀x (B(x) → ¬A(x))"
    r = S.audit(D.story_from_row(row, "t", "1"))
    assert r["agrees"] and r["problem"] is None and r["gold_evidence"]["model"]["true_atoms"]


def test_folio_has_its_options_and_stays_out_of_all():
    from ambit.client.eval.suites import ALL, SUITES

    assert "folio" in SUITES and "folio" not in {name for name, _ in ALL}
    a = cli.build_parser().parse_args(["folio", "--out", "o", "--split", "validation", "--samples", "3", "--shots", "1"])
    assert (a.split, a.samples, a.shots, a.beam, a.demo_split, a.audit_gold) == ("validation", 3, 1, 1, "train", False)
