"""Scoring translations of FOLIO stories by proof, and auditing the gold formulas.

Per sentence: does the translation parse (the `folio` reader), was the decoder's output in
the decode grammar,
and how does it relate to the gold formula after name alignment (`folio_align`): EQUIVALENT,
STRONGER (it entails the gold formula, not conversely), WEAKER, NOT_RELATED (neither entails
the other) or UNKNOWN (a budget ran out), with the prover's proofs or checked countermodel.
Per story and sample: the label the prover derives from the translated premises and
conclusion (True, False, Uncertain, INCONSISTENT premises, UNKNOWN; None when a sentence does
not parse). Over samples: LINC's majority vote, ignoring INCONSISTENT, UNKNOWN and
unparseable samples. The gold audit derives the label from the gold formulas the same way.
All the proving goes through logic's public batch functions (a few round trips per story).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ambit import logic
from ambit.logic.ast import Atom, Const
from ambit.client.eval import folio_align as A
from ambit.client.eval import folio_grammar as G
from ambit.client.eval.folio_data import Story

FMT = "folio"
LABEL_OF = {"TRUE": "True", "FALSE": "False", "UNCERTAIN": "Uncertain", "INCONSISTENT": "INCONSISTENT",
            "UNKNOWN": "UNKNOWN"}
RELATIONS = ("EQUIVALENT", "STRONGER", "WEAKER", "NOT_RELATED", "UNKNOWN")
_ENTAILS = {"TRUE": True, "INCONSISTENT": True, "FALSE": False, "UNCERTAIN": False}
# a conclusion no story mentions: premises decide it (TRUE/FALSE) only when they are
# inconsistent, and then the proof refutes the premises alone; otherwise UNCERTAIN comes with
# a model of the premises
FRESH = Atom("AmbitAuditFresh", (Const("ambit_audit_fresh"),))


def read(text: str | None) -> tuple[Any, str | None]:
    """(formula, None) or (None, the parse error in a line)."""
    if text is None:
        return None, "missing"
    try:
        return logic.parse(text, FMT), None
    except logic.LFParseError as e:
        return None, str(e).splitlines()[0]


# --------------------------------------------------------------------------- gold audit


def audit(story: Story) -> dict:
    """What the gold formulas say: `gold_label` (the prover's, from the gold premises and
    conclusion; None without a conclusion formula), `agrees`, and why not (`problem`:
    unparseable, inconsistent, unknown, label), with the prover's evidence. Without a
    conclusion formula only the premises are checked (parse, consistent): `label_checked` false.
    The evidence of inconsistent premises is a refutation of the premises alone (the
    conclusion's proof of an INCONSISTENT story may use the conclusion too)."""
    return audit_batch([story])[0]


def audit_batch(stories: Sequence[Story], workers: int = 1) -> list[dict]:
    """`audit` for many stories, in one prover batch."""
    out: list[dict] = []
    todo: list[tuple[int, list, Any]] = []
    for s in stories:
        prem = [read(t) for t in s.premises_fol]
        conc = read(s.conclusion_fol) if s.conclusion_fol is not None else (None, None)
        errors = {f"premises-FOL[{i}]": e for i, (_, e) in enumerate(prem) if e}
        if s.conclusion_fol is not None and conc[1]:
            errors["conclusion-FOL"] = conc[1]
        rec = {"gold_label": None, "label_checked": s.conclusion_fol is not None, "agrees": False,
               "problem": None, "gold_errors": errors}
        out.append(rec)
        if errors:
            rec["problem"] = "unparseable"
            continue
        ps = [f for f, _ in prem]
        if not ps:
            rec["problem"] = "no premises"
            continue
        todo.append((len(out) - 1, ps, conc[0] if conc[0] is not None else FRESH))
    decisions = logic.decide_batch([(ps, c) for _, ps, c in todo], FMT, workers=workers) if todo else []
    recheck = [k for k, ((_, _, c), d) in enumerate(zip(todo, decisions)) if d.verdict == "INCONSISTENT" and c != FRESH]
    for k, d in zip(recheck, logic.decide_batch([(todo[k][1], FRESH) for k in recheck], FMT) if recheck else []):
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


# --------------------------------------------------------------------------- translations


def score_story(story: Story, samples: Sequence[Sequence[dict]]) -> dict:
    """Scores of a story's translation samples (each: per sentence of `story.sentences`, a
    dict with `text` and optionally `finished`), the vote, and the gold audit."""
    golds = [read(t)[0] for t in story.gold_fol]
    scored = [_sample(story, golds, s) for s in samples]
    _relations(scored, golds)
    labels = _labels(story, scored)
    for s, lab in zip(scored, labels):
        s.update(lab)
        s["correct"] = s["label"] == story.label
        compared = [x for x in s["sentences"] if x["relation"] is not None]
        s["right_label_wrong_translation"] = bool(
            s["correct"] and compared and any(x["relation"] != "EQUIVALENT" for x in compared))
    voted = vote([s["label"] for s in scored])
    return {"story_id": story.story_id, "label": story.label, "samples": scored,
            "voted_label": voted, "voted_correct": voted == story.label, **audit(story)}


def _sample(story: Story, golds: Sequence[Any], sample: Sequence[dict]) -> dict:
    if len(sample) != len(story.sentences):
        raise ValueError(f"story {story.id}: {len(sample)} translations for {len(story.sentences)} sentences")
    sentences, forms = [], []
    for i, tr in enumerate(sample):
        f, err = read(tr["text"])
        forms.append(f)
        rec = {"role": "conclusion" if i == len(sample) - 1 else "premise", "text": tr["text"],
               "parses": f is not None,
               # the decoder's own output against the decode grammar (None: not decoded, an oracle)
               "raw": tr.get("raw"), "in_grammar": G.in_grammar(tr["raw"]) if "raw" in tr else None,
               "finished": tr.get("finished", True), "gold_parses": golds[i] is not None, "relation": None}
        if tr["text"] is None:
            rec["missing"] = True  # nothing to score (an oracle without a gold conclusion)
        elif err:
            rec["error"] = err
        sentences.append(rec)
    al = A.align(forms, golds)
    return {"sentences": sentences, "alignment": al.to_dict(), "_forms": forms, "_alignment": al}


def _relations(scored: list[dict], golds: Sequence[Any]) -> None:
    """Fill each compared sentence's `relation`, `aligned` and `evidence`, in batches."""
    cells = []  # (sample, sentence, aligned translation, gold)
    for s in scored:
        for i, (f, g) in enumerate(zip(s["_forms"], golds)):
            if f is None or g is None:
                continue
            a = A.rename(f, s["_alignment"].mapping)
            s["sentences"][i]["aligned"] = a != f
            cells.append((s, i, a, g))
    verdicts = logic.equivalent_batch([(a, g) for _, _, a, g in cells], FMT) if cells else []
    missing = []  # (cell index, direction) whose entailment the verdict left open
    for k, v in enumerate(verdicts):
        if v.verdict == "NOT_EQUIVALENT":
            if v.a_entails_b is None:
                missing.append((k, "ab"))
            if v.b_entails_a is None:
                missing.append((k, "ba"))
    extra = logic.decide_batch([([cells[k][2]], cells[k][3]) if d == "ab" else ([cells[k][3]], cells[k][2])
                                for k, d in missing], FMT) if missing else []
    filled: dict[tuple[int, str], Any] = {m: d for m, d in zip(missing, extra)}
    for k, ((s, i, _, _), v) in enumerate(zip(cells, verdicts)):
        rec = s["sentences"][i]
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
    for s in scored:
        del s["_forms"], s["_alignment"]


def _labels(story: Story, scored: list[dict]) -> list[dict]:
    """Each sample's prover label from its own translated premises and conclusion."""
    out: list[dict] = [{"label": None, "label_evidence": None, "label_scored": True} for _ in scored]
    todo = []
    for j, s in enumerate(scored):
        if any(x.get("missing") for x in s["sentences"]):
            out[j].update(label_scored=False, label_problem="missing translation")
        elif all(x["parses"] for x in s["sentences"]):
            forms = [logic.parse(x["text"], FMT) for x in s["sentences"]]
            todo.append((j, forms[:-1], forms[-1]))
        else:
            out[j]["label_problem"] = "syntax error"
    for (j, ps, c), d in zip(todo, logic.decide_batch([(ps, c) for _, ps, c in todo], FMT) if todo else []):
        out[j].update(label=LABEL_OF[d.verdict], label_evidence=d.to_dict())
    return out


def vote(labels: Sequence[str | None]) -> str | None:
    """LINC's majority vote over samples' labels, ignoring INCONSISTENT, UNKNOWN and
    unparseable (None) samples; a tie goes to the label that the earliest sample gave."""
    valid = [x for x in labels if x in ("True", "False", "Uncertain")]
    if not valid:
        return None
    counts = Counter(valid)
    top = max(counts.values())
    return next(x for x in valid if counts[x] == top)
