"""Scoring translations of FOLIO stories by proof, and auditing the gold formulas.

Per sentence: parse, decode grammar, and relation to the gold formula after name alignment
(RELATIONS). Per sample: the prover's label and why there is none (LABEL_PROBLEMS); over
samples, a vote (VOTES). All proving goes through logic's batch functions (few round trips).
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
# a conclusion no story mentions: premises decide it only when they are inconsistent
FRESH = Atom("AmbitAuditFresh", (Const("ambit_audit_fresh"),))
# why a sample has no definite label (`label_problem`); time_limit covers any budget (time,
# inferences, model size) and formulas outside what the engine decides; missing_translation is
# an oracle without the gold conclusion (not scored)
LABEL_PROBLEMS = ("syntax", "mixed_arity", "symbol_kind", "free_variable", "inconsistent_premises", "time_limit",
                  "memory", "no_translation", "missing_translation")
# how samples vote (`--vote`): LINC's `majority`, or the Prover9 pipelines' `drop-errors` (see vote)
VOTES = ("majority", "drop-errors")


def read(text: str | None, fmt: str = FMT, free_variables: str | None = None) -> tuple[Any, tuple[str, int] | None]:
    """(formula, None) or (None, (the parse error in a line, its 0-based character position))."""
    return read_closed(text, fmt, free_variables)[:2]


def read_closed(text: str | None, fmt: str = FMT, free_variables: str | None = None
                ) -> tuple[Any, tuple[str, int, str] | None, tuple[str, ...]]:
    """`read`, and the free variables closed under ∀; an error also has the LFParseError's kind."""
    if text is None:
        return None, ("missing", 0, "missing"), ()
    try:
        f, closed = dialect(fmt, free_variables).read(text)
        return f, None, tuple(closed)
    except logic.LFParseError as e:
        return None, (e.describe().splitlines()[0], e.pos, e.kind), ()  # as before: no hint looked for per formula


def audit(story: Story, free_variables: str | None = None, symbols: str | None = None) -> dict:
    """The prover's `gold_label` from the gold formulas, whether it `agrees`, and the `problem`."""
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
        if d.verdict in ("INCONSISTENT", "UNKNOWN"):
            rec["problem"] = d.verdict.lower()
            if rec["label_checked"]:
                rec["gold_label"] = LABEL_OF[d.verdict]
        elif rec["label_checked"]:
            rec["gold_label"] = LABEL_OF[d.verdict]
            rec["agrees"] = rec["gold_label"] == s.label
            rec["problem"] = None if rec["agrees"] else "label"
        else:
            rec["agrees"] = True
    return out


def _symbols(fmt: str, symbols: str | None) -> str:
    """The name-space rule a story in `fmt` is read with (`symbols`, else the dialect's own)."""
    return dialect(fmt, symbols=symbols).symbols


def _mixed_arity(premises: Sequence[Any], conclusion: Any, texts: Sequence[str | None], conclusion_text: str | None,
                 field: str = "premises", conclusion_field: str = "conclusion",
                 symbols: str = "separate") -> tuple[str, str] | None:
    """(`mixed_arity` or `symbol_kind`, the error) when a story uses a symbol with two arities or,
    with `symbols="shared"`, two kinds (Prover9, E, TPTP and the logic layer refuse both)."""
    forms = [(f"{field}[{i}]", f, t) for i, (f, t) in enumerate(zip(premises, texts))]
    if conclusion is not None:
        forms.append((conclusion_field, conclusion, conclusion_text))
    try:
        check_arities(forms, symbols)
    except ArityError as e:
        return e.problem, str(e)
    return None


def score_story(story: Story, samples: Sequence[Sequence[dict] | dict], fmt: str = FMT,
                free_variables: str | None = None, symbols: str | None = None, vote_rule: str = "majority") -> dict:
    """Scores of a story's translation samples, the vote, and the gold audit. A sample is a list
    with one dict per sentence (paired by order), or a recorded sample (`folio.recorded`) whose
    premises `folio/align.py: pair_sentences` pairs; gold formulas are read in FOLIO's dialect."""
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
        # Logic-LM's figure; None where there is nothing to execute
        s["executable"] = s["label"] is not None if s["label_scored"] else None
    voted = vote([s["label"] for s in scored], vote_rule)
    return {"story_id": story.story_id, "label": story.label, "samples": scored, "vote": vote_rule,
            "voted_label": voted, "voted_correct": voted == story.label, **audit(story, free_variables, symbols)}


def _formulas(story: Story, sample: Sequence[dict] | dict) -> dict:
    """A sample as its formulas (`role`, `sentence` index or None, `paired_by`), or its `error`."""
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
            rec.update(error=err[0], error_at=err[1], error_kind=err[2],
                       formula="conclusion" if tr["role"] == "conclusion" else f"premises[{k}]")
        sentences.append(rec)
    used = {tr["sentence"] for tr in sample["formulas"] if tr["sentence"] is not None}
    rest = [g for i, g in enumerate(golds) if i not in used and g is not None]  # gold names for the alignment
    al = A.align([*forms, *[None] * len(rest)], [*pgolds, *rest])
    out = {"sentences": sentences, "alignment": al.to_dict(), "_forms": forms, "_golds": pgolds, "_alignment": al}
    if sample["error"]:
        out["error"] = sample["error"]
    return out


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
    # a translation and its gold formula come from two vocabularies: separate name spaces
    verdicts = _batch(logic.equivalent_batch, [(a, g) for _, _, a, g in cells], "separate")
    # (cell index, direction) whose entailment the verdict left open
    missing = [(k, d) for k, v in enumerate(verdicts)
               if not isinstance(v, str) and v.verdict == "NOT_EQUIVALENT"
               for d, e in (("ab", v.a_entails_b), ("ba", v.b_entails_a)) if e is None]
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
    """Each sample's prover label from its translations, and why there is none (`label_problem`)."""
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
    decided = _batch(logic.decide_batch, [(ps, c) for _, ps, c in todo], symbols)
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


def _batch(fn: Any, items: list, symbols: str) -> list[Any]:
    """`fn(items)` in one batch, else item by item, a refused item (ValueError) as its error."""
    if not items:
        return []
    try:
        return fn(items, FMT, symbols=symbols)
    except ValueError:
        out: list[Any] = []
        for it in items:
            try:
                out.append(fn([it], FMT, symbols=symbols)[0])
            except ValueError as e:
                out.append(str(e).splitlines()[0])
        return out


def vote(labels: Sequence[str | None], rule: str = "majority") -> str | None:
    """The majority of samples' definite labels (a tie: the earliest sample's), None without one.
    Under `drop-errors` an INCONSISTENT sample votes True, as a Prover9 pipeline proves the
    conclusion from contradictory premises; which examples count differs too (report.summary)."""
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
