"""Scoring translations of FOLIO stories by proof, and auditing the gold formulas.

Per sentence: does the translation parse (the `folio` reader), was the decoder's output in
the decode grammar,
and how does it relate to the gold formula after name alignment (`folio.align`): EQUIVALENT,
STRONGER (it entails the gold formula, not conversely), WEAKER, NOT_RELATED (neither entails
the other) or UNKNOWN (a budget ran out), with the prover's proofs or checked countermodel.
Per story and sample: the label the prover derives from the translated premises and
conclusion (True, False, Uncertain, INCONSISTENT premises, UNKNOWN; None when a sentence does
not parse), and why a sample has no label (`label_problem`, one of LABEL_PROBLEMS). Over samples:
a vote by the rule `--vote` names (VOTES). The gold audit derives the label from the gold
formulas the same way.
All the proving goes through logic's public batch functions (a few round trips per story).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ambit import logic
from ambit.logic.syntax.ast import Atom, Const
from ambit.logic.syntax.dialect import FOLIO, dialect
from ambit.logic.syntax.reading import ArityError, check_arities
from ambit.client.eval.folio import align as A
from ambit.client.eval.folio import grammar as G
from ambit.client.eval.folio.data import Story

FMT = FOLIO
LABEL_OF = {"TRUE": "True", "FALSE": "False", "UNCERTAIN": "Uncertain", "INCONSISTENT": "INCONSISTENT",
            "UNKNOWN": "UNKNOWN"}
RELATIONS = ("EQUIVALENT", "STRONGER", "WEAKER", "NOT_RELATED", "UNKNOWN")
_ENTAILS = {"TRUE": True, "INCONSISTENT": True, "FALSE": False, "UNCERTAIN": False}
# a conclusion no story mentions: premises decide it (TRUE/FALSE) only when they are
# inconsistent, and then the proof refutes the premises alone; otherwise UNCERTAIN comes with
# a model of the premises
FRESH = Atom("AmbitAuditFresh", (Const("ambit_audit_fresh"),))
# why a sample has no definite label (True/False/Uncertain): its `label_problem`. A formula that
# does not read (syntax), a free variable refused (free_variable, with --free-variables error),
# one symbol with two arities (mixed_arity) or two kinds (symbol_kind: a predicate that is also a
# constant or function), premises that contradict each other (inconsistent_premises), a budget
# spent (time_limit: time, inferences, model size, or a formula outside what the engine decides)
# or memory; and where the system gave nothing to read: no_translation (a failed or absent
# sample) and missing_translation (an oracle without the gold conclusion: not scored).
LABEL_PROBLEMS = ("syntax", "mixed_arity", "symbol_kind", "free_variable", "inconsistent_premises", "time_limit",
                  "memory", "no_translation", "missing_translation")
# how samples vote (`--vote`): `majority` (LINC's vote as ambit has always taken it: INCONSISTENT,
# UNKNOWN and unlabelled samples ignored, an example counted over the examples with a scored
# sample) or `drop-errors` (the Prover9 pipelines' rule: a sample with a label_problem does not
# vote; an example where no sample has a label counts as wrong, over every example)
VOTES = ("majority", "drop-errors")


def read(text: str | None, fmt: str = FMT, free_variables: str | None = None) -> tuple[Any, tuple[str, int] | None]:
    """(formula, None) or (None, (the parse error in a line, its 0-based character position)).
    Free variables are read as `free_variables` says (None: the dialect's default, universal
    closure in the full dialects; see `read_closed`)."""
    return read_closed(text, fmt, free_variables)[:2]


def read_closed(text: str | None, fmt: str = FMT, free_variables: str | None = None
                ) -> tuple[Any, tuple[str, int, str] | None, tuple[str, ...]]:
    """`read`, and the free variables that the reading closed under ∀. An error is (message,
    position, the LFParseError's kind: `syntax`, `unbound_variable`, ...)."""
    if text is None:
        return None, ("missing", 0, "missing"), ()
    try:
        f, closed = dialect(fmt, free_variables).read(text)
        return f, None, tuple(closed)
    except logic.LFParseError as e:
        return None, (e.describe().splitlines()[0], e.pos, e.kind), ()  # as before: no hint looked for per formula


# --------------------------------------------------------------------------- gold audit


def audit(story: Story, free_variables: str | None = None, symbols: str | None = None) -> dict:
    """What the gold formulas say: `gold_label` (the prover's, from the gold premises and
    conclusion; None without a conclusion formula), `agrees`, and why not (`problem`:
    unparseable, inconsistent, unknown, label), with the prover's evidence. Without a
    conclusion formula only the premises are checked (parse, consistent): `label_checked` false.
    The evidence of inconsistent premises is a refutation of the premises alone (the
    conclusion's proof of an INCONSISTENT story may use the conclusion too)."""
    return audit_batch([story], free_variables=free_variables, symbols=symbols)[0]


def audit_batch(stories: Sequence[Story], workers: int = 1, free_variables: str | None = None,
                symbols: str | None = None) -> list[dict]:
    """`audit` for many stories, in one prover batch."""
    out: list[dict] = []
    todo: list[tuple[int, list, Any]] = []
    for s in stories:
        prem = [read(t, FMT, free_variables) for t in s.premises_fol]
        conc = read(s.conclusion_fol, FMT, free_variables) if s.conclusion_fol is not None else (None, None)
        errors = {f"premises-FOL[{i}]": e[0] for i, (_, e) in enumerate(prem) if e}
        if s.conclusion_fol is not None and conc[1]:
            errors["conclusion-FOL"] = conc[1][0]
        rec = {"gold_label": None, "label_checked": s.conclusion_fol is not None, "agrees": False,
               "problem": None, "gold_errors": errors}
        out.append(rec)
        if errors:
            rec["problem"] = "unparseable"
            continue
        ps = [f for f, _ in prem]
        if (mixed := _mixed_arity(ps, conc[0], list(s.premises_fol), s.conclusion_fol, "premises-FOL",
                                  "conclusion-FOL", _symbols(FMT, symbols))):
            rec["problem"] = mixed[0].replace("_", " ")  # "mixed arity" or "symbol kind"
            rec["gold_errors"] = {"arity" if mixed[0] == "mixed_arity" else "symbol_kind": mixed[1]}
            continue
        if not ps:
            rec["problem"] = "no premises"
            continue
        todo.append((len(out) - 1, ps, conc[0] if conc[0] is not None else FRESH))
    sym = _symbols(FMT, symbols)
    decisions = logic.decide_batch([(ps, c) for _, ps, c in todo], FMT, workers=workers, symbols=sym) if todo else []
    recheck = [k for k, ((_, _, c), d) in enumerate(zip(todo, decisions)) if d.verdict == "INCONSISTENT" and c != FRESH]
    for k, d in zip(recheck, logic.decide_batch([(todo[k][1], FRESH) for k in recheck], FMT, symbols=sym) if recheck else []):
        if d.verdict == "INCONSISTENT":
            decisions[k] = d
    for (i, _, _), d in zip(todo, decisions):
        rec, s = out[i], stories[i]
        rec["gold_evidence"] = d.to_dict()
        if d.verdict == "INCONSISTENT":
            rec["problem"] = "inconsistent"
        elif d.verdict == "UNKNOWN":
            rec["problem"] = "unknown"
        elif rec["label_checked"]:
            rec["gold_label"] = LABEL_OF[d.verdict]
            rec["agrees"] = rec["gold_label"] == s.label
            rec["problem"] = None if rec["agrees"] else "label"
        else:
            rec["agrees"] = True
        if rec["label_checked"] and d.verdict in ("INCONSISTENT", "UNKNOWN"):
            rec["gold_label"] = LABEL_OF[d.verdict]
    return out


def _symbols(fmt: str, symbols: str | None) -> str:
    """The name-space rule a story in `fmt` is read with (`symbols`, else the dialect's own)."""
    return dialect(fmt, symbols=symbols).symbols


def _mixed_arity(premises: Sequence[Any], conclusion: Any, texts: Sequence[str | None], conclusion_text: str | None,
                 field: str = "premises", conclusion_field: str = "conclusion",
                 symbols: str = "separate") -> tuple[str, str] | None:
    """(`mixed_arity` or `symbol_kind`, the error naming both uses) when a story uses one
    predicate or function with two arities, or, with `symbols="shared"`, one name as a predicate
    and as a function or constant (Prover9, E and TPTP refuse both, and so does the logic
    layer); None when it does neither."""
    forms = [(f"{field}[{i}]", f, t) for i, (f, t) in enumerate(zip(premises, texts))]
    if conclusion is not None:
        forms.append((conclusion_field, conclusion, conclusion_text))
    try:
        check_arities(forms, symbols)
    except ArityError as e:
        return e.problem, str(e)
    return None


# --------------------------------------------------------------------------- translations


def score_story(story: Story, samples: Sequence[Sequence[dict] | dict], fmt: str = FMT,
                free_variables: str | None = None, symbols: str | None = None, vote_rule: str = "majority") -> dict:
    """Scores of a story's translation samples, the vote, and the gold audit. A sample is
    either a list with one dict per sentence of `story.sentences` (`text`, optionally `raw` and
    `finished`: a decoder's output, paired by order), or a recorded sample (`folio.recorded`):
    `{"premises": [...], "conclusion": ..., "error": ...}`, whose premise formulas (a string, or
    a dict with `formula` and optionally `comment` / `sentence`) are paired with the premises by
    `folio/align.py: pair_sentences`. Translations are read in `fmt` (a full first-order dialect),
    the gold formulas in FOLIO's own; free variables in both as `free_variables` says (None:
    the dialect's default, universal closure; a formula whose free variables were closed
    records them in `closed`); one name as predicate and constant as `symbols` says (None: the
    dialect's rule, one name space in the full dialects). `vote_rule`: one of VOTES."""
    golds = [read(t, FMT, free_variables)[0] for t in story.gold_fol]
    scored = [_sample(story, golds, _formulas(story, s), fmt, free_variables) for s in samples]
    _relations(scored)
    labels = _labels(story, scored, _symbols(fmt, symbols))
    for s, lab in zip(scored, labels):
        s.update(lab)
        s["correct"] = s["label"] == story.label
        compared = [x for x in s["sentences"] if x["relation"] is not None]
        s["right_label_wrong_translation"] = bool(
            s["correct"] and compared and any(x["relation"] != "EQUIVALENT" for x in compared))
        # executable (Logic-LM's figure): every formula read and taken by the prover, which ran
        # (None where there is nothing to execute: an oracle without the gold conclusion)
        s["executable"] = s["label"] is not None if s["label_scored"] else None
    voted = vote([s["label"] for s in scored], vote_rule)
    return {"story_id": story.story_id, "label": story.label, "samples": scored, "vote": vote_rule,
            "voted_label": voted, "voted_correct": voted == story.label, **audit(story, free_variables, symbols)}


def _formulas(story: Story, sample: Sequence[dict] | dict) -> dict:
    """A sample as its formulas, each with `role`, `sentence` (the index into `story.sentences`
    it translates; None: unpaired) and `paired_by`; `error` when the system produced nothing."""
    n = len(story.premises)
    if not isinstance(sample, dict):
        if len(sample) != len(story.sentences):
            raise ValueError(f"story {story.id}: {len(sample)} translations for {len(story.sentences)} sentences")
        return {"error": None, "formulas": [
            {**tr, "role": "conclusion" if i == n else "premise", "sentence": i, "paired_by": "order"}
            for i, tr in enumerate(sample)]}
    prem, conc = sample.get("premises"), sample.get("conclusion")
    if prem is None or (conc is None and not sample.get("oracle")):
        return {"error": sample.get("error") or "no translation", "formulas": []}
    items = [p if isinstance(p, dict) else {"formula": p} for p in prem]
    pairs = A.pair_sentences(story.premises, [(p.get("comment"), p.get("sentence")) for p in items])
    out = [{"text": p.get("formula"), "role": "premise", "sentence": i, "paired_by": how,
            **{k: p[k] for k in ("comment",) if p.get(k)}} for p, (i, how) in zip(items, pairs)]
    c = conc if isinstance(conc, dict) else {"formula": conc}
    out.append({"text": c.get("formula"), "role": "conclusion", "sentence": n, "paired_by": "order",
                **{k: c[k] for k in ("comment",) if c.get(k)}})
    return {"error": sample.get("error"), "formulas": out}


def _sample(story: Story, golds: Sequence[Any], sample: dict, fmt: str, free_variables: str | None) -> dict:
    sentences, forms, pgolds = [], [], []
    for k, tr in enumerate(sample["formulas"]):
        f, err, closed = read_closed(tr["text"], fmt, free_variables)
        g = golds[tr["sentence"]] if tr["sentence"] is not None else None
        forms.append(f)
        pgolds.append(g)
        rec = {"role": tr["role"], "text": tr["text"], "sentence": tr["sentence"], "paired_by": tr["paired_by"],
               "parses": f is not None,
               # the decoder's own output against the decode grammar (None: not decoded, an oracle)
               "raw": tr.get("raw"), "in_grammar": G.in_grammar(tr["raw"]) if "raw" in tr else None,
               "finished": tr.get("finished", True), "gold_parses": g is not None, "relation": None}
        if "comment" in tr:
            rec["comment"] = tr["comment"]
        if closed:
            rec["closed"] = list(closed)  # free variables read as universally quantified
        if tr["text"] is None:
            rec["missing"] = True  # nothing to score (an oracle without a gold conclusion)
        elif err:
            rec["error"] = err[0]
            rec["error_at"] = err[1]
            rec["error_kind"] = err[2]
            rec["formula"] = _formula_name(sample["formulas"], k)
        sentences.append(rec)
    used = {tr["sentence"] for tr in sample["formulas"] if tr["sentence"] is not None}
    rest = [g for i, g in enumerate(golds) if i not in used and g is not None]  # gold names for the alignment
    al = A.align([*forms, *[None] * len(rest)], [*pgolds, *rest])
    out = {"sentences": sentences, "alignment": al.to_dict(), "_forms": forms, "_golds": pgolds, "_alignment": al}
    if sample["error"]:
        out["error"] = sample["error"]
    return out


def _formula_name(formulas: Sequence[dict], k: int) -> str:
    """`premises[i]` or `conclusion`: where a formula sits in its sample."""
    return "conclusion" if formulas[k]["role"] == "conclusion" else f"premises[{k}]"


def _relations(scored: list[dict]) -> None:
    """Fill each compared sentence's `relation`, `aligned` and `evidence`, in batches."""
    cells = []  # (sample, sentence, aligned translation, gold)
    for s in scored:
        for i, (f, g) in enumerate(zip(s["_forms"], s["_golds"])):
            if f is None or g is None:
                continue
            a = A.rename(f, s["_alignment"].mapping)
            s["sentences"][i]["aligned"] = a != f
            cells.append((s, i, a, g))
    verdicts = _equivalent([(a, g) for _, _, a, g in cells])
    missing = []  # (cell index, direction) whose entailment the verdict left open
    for k, v in enumerate(verdicts):
        if not isinstance(v, str) and v.verdict == "NOT_EQUIVALENT":
            if v.a_entails_b is None:
                missing.append((k, "ab"))
            if v.b_entails_a is None:
                missing.append((k, "ba"))
    extra = logic.decide_batch([([cells[k][2]], cells[k][3]) if d == "ab" else ([cells[k][3]], cells[k][2])
                                for k, d in missing], FMT, symbols="separate") if missing else []
    filled: dict[tuple[int, str], Any] = {m: d for m, d in zip(missing, extra)}
    for k, ((s, i, _, _), v) in enumerate(zip(cells, verdicts)):
        rec = s["sentences"][i]
        if isinstance(v, str):  # refused (a symbol with two arities in the pair): not compared
            rec["relation"], rec["relation_error"] = None, v
            continue
        rec["evidence"] = {"equivalence": {"verdict": v.verdict, "witness": v.witness}}
        if v.verdict != "NOT_EQUIVALENT":
            rec["relation"] = v.verdict
            continue
        ab, ba = v.a_entails_b, v.b_entails_a
        if (k, "ab") in filled:
            ab = _ENTAILS.get(filled[(k, "ab")].verdict)
            rec["evidence"]["translation_entails_gold"] = filled[(k, "ab")].to_dict()
        if (k, "ba") in filled:
            ba = _ENTAILS.get(filled[(k, "ba")].verdict)
            rec["evidence"]["gold_entails_translation"] = filled[(k, "ba")].to_dict()
        rec["relation"] = ("UNKNOWN" if ab is None or ba is None else "STRONGER" if ab
                           else "WEAKER" if ba else "NOT_RELATED")


def _labels(story: Story, scored: list[dict], symbols: str = "shared") -> list[dict]:
    """Each sample's prover label from all its own translated premises and its conclusion, and
    why there is none (`label_problem`, one of LABEL_PROBLEMS; `label_error` in words)."""
    out: list[dict] = [{"label": None, "label_evidence": None, "label_scored": True} for _ in scored]
    todo = []
    for j, s in enumerate(scored):
        forms = s.pop("_forms")
        del s["_golds"], s["_alignment"]
        if s.get("error"):
            out[j].update(label_problem="no_translation", label_error=s["error"])
        elif any(x.get("missing") for x in s["sentences"]):
            out[j].update(label_scored=False, label_problem="missing_translation")
        elif all(x["parses"] for x in s["sentences"]):
            texts = [x["text"] for x in s["sentences"]]
            if mixed := _mixed_arity(forms[:-1], forms[-1], texts[:-1], texts[-1], symbols=symbols):
                out[j].update(label_problem=mixed[0], label_error=mixed[1])
            else:
                todo.append((j, forms[:-1], forms[-1]))
        else:
            bad = next(x for x in s["sentences"] if not x["parses"])
            out[j].update(label_problem="free_variable" if bad.get("error_kind") == "unbound_variable" else "syntax",
                          label_error=f"{bad.get('formula')}: {bad.get('error', 'missing')}")
    decided = _decide([(ps, c) for _, ps, c in todo], symbols)
    for (j, _, _), d in zip(todo, decided):
        if isinstance(d, str):
            out[j].update(label_problem="syntax", label_error=f"the prover refused the story: {d}")
        else:
            out[j].update(label=LABEL_OF[d.verdict], label_evidence=d.to_dict())
            if problem := _verdict_problem(d):
                out[j].update(label_problem=problem, label_error=_verdict_error(d))
    return out


def _verdict_problem(d: Any) -> str | None:
    """The label_problem of a decision that gives no definite label (None for one that does)."""
    if d.verdict == "INCONSISTENT":
        return "inconsistent_premises"
    if d.verdict == "UNKNOWN":
        return "memory" if d.reason == "memory_limit" else "time_limit"
    return None


def _verdict_error(d: Any) -> str:
    if d.verdict == "INCONSISTENT":
        return "the premises contradict each other (the prover refutes them without the conclusion)"
    return f"UNKNOWN: the prover's budget ran out ({d.reason or 'no reason given'})"


def _equivalent(pairs: list[tuple[Any, Any]]) -> list[Any]:
    """Verdicts in one batch; when the batch refuses a pair (a ValueError), each pair alone, the
    refused ones as their error's text. A translation and its gold formula come from two
    vocabularies, so they are compared with separate name spaces (the label's story is one
    problem and follows the run's `symbols`)."""
    if not pairs:
        return []
    try:
        return logic.equivalent_batch(pairs, FMT, symbols="separate")
    except ValueError:
        out: list[Any] = []
        for p in pairs:
            try:
                out.append(logic.equivalent_batch([p], FMT, symbols="separate")[0])
            except ValueError as e:
                out.append(str(e).splitlines()[0])
        return out


def _decide(stories: list[tuple[list, Any]], symbols: str = "shared") -> list[Any]:
    """Decisions in one batch; when the batch refuses a story (a ValueError: a formula the
    prover does not take), each story alone, the refused ones as their error's text."""
    if not stories:
        return []
    try:
        return logic.decide_batch(stories, FMT, symbols=symbols)
    except ValueError:
        out: list[Any] = []
        for st in stories:
            try:
                out.append(logic.decide_batch([st], FMT, symbols=symbols)[0])
            except ValueError as e:
                out.append(str(e).splitlines()[0])
        return out


def vote(labels: Sequence[str | None], rule: str = "majority") -> str | None:
    """The vote over samples' labels by `rule` (one of VOTES): LINC's majority, ignoring
    INCONSISTENT, UNKNOWN and unparseable (None) samples; a tie goes to the label that the
    earliest sample gave. Under `drop-errors` UNKNOWN and unparseable samples are dropped (they
    have a label_problem), an INCONSISTENT sample votes True (what a Prover9 pipeline answers:
    it asks for a proof of the conclusion first, and contradictory premises prove it), and the
    rest vote the same way; the rules also differ in which examples the voted accuracy counts
    (report.summary). None: no sample has a definite label."""
    if rule not in VOTES:
        raise ValueError(f"vote rule must be one of {', '.join(VOTES)}, not {rule!r}")
    if rule == "drop-errors":  # Prover9 proves the conclusion from contradictory premises: True
        labels = ["True" if x == "INCONSISTENT" else x for x in labels]
    valid = [x for x in labels if x in ("True", "False", "Uncertain")]
    if not valid:
        return None
    counts = Counter(valid)
    top = max(counts.values())
    return next(x for x in valid if counts[x] == top)
