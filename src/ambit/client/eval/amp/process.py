"""One AmP item as a record, with the server's help: its prompt decoded (beam search) and the
predictions matched to the gold LFs, and both gold LFs scored by forced decoding (P(LF0), FIM)."""

from __future__ import annotations

from collections.abc import Sequence

from ambit.logic.syntax.dialect import FOL
from ambit.client.eval import explained
from ambit.client.eval.amp import matching as MT
from ambit.client.eval import metrics as M


def continuation(prompt: str, lf: str) -> str:
    """The LF as a continuation of the prompt: after "Computer:" the model writes " <LF>"."""
    return lf if not prompt or prompt[-1].isspace() else " " + lf


def _tokens(tokens: Sequence[str], probs: Sequence[float]) -> list[dict]:
    return [{"text": t, "prob": p} for t, p in zip(tokens, probs)]


def ranks(preds: list[dict], item: dict, fmt: str, match: str) -> dict:
    """Match ``preds`` to the item's gold LFs (each prediction's ``match_lf0/1`` set); the ranks."""
    table = MT.match_predictions(preds, (item["lf0"], item["lf1"]), fmt, match)
    for p, m0, m1 in zip(preds, *table):
        p["match_lf0"], p["match_lf1"] = m0, m1
    canon = [MT.first_match(row, "canonical") for row in table]
    equiv = [MT.first_match(row, "equivalence") if match == "equivalence" else None for row in table]
    ranked = equiv if match == "equivalence" else canon
    return {"rank_lf0": ranked[0], "rank_lf1": ranked[1],
            "rank_lf0_canonical": canon[0], "rank_lf1_canonical": canon[1],
            "rank_lf0_equiv": equiv[0], "rank_lf1_equiv": equiv[1]}


def zeroshot_process(client, item: dict, fmt: str = FOL, beam: int = 5,
                     match: str = "equivalence", grammar: str = "closed", scores: bool = True) -> dict:
    """The item's record; without ``scores`` the forced-decode fields are None and tokens empty."""
    dist = client.parse_distribution(item.get("surface", ""), prompt=item["prompt"], fmt=fmt, k=beam,
                                     closed_vocabulary=grammar == "closed")
    preds = [{"text": c.text, "canonical": c.canonical or None, "status": c.parse_status,
              "logprob": c.logprob, "min_prob": c.min_prob, "probability": c.probability}
             for c in dist.candidates]
    ranked = ranks(preds, item, fmt, match)
    gold = client.score(item["prompt"], [continuation(item["prompt"], item["lf0"]),
                                         continuation(item["prompt"], item["lf1"])]).scores if scores else None
    s0, s1 = (gold[0].min_prob, gold[1].min_prob) if gold else (None, None)
    top = dist.candidates[0] if dist.candidates else None
    return {
        "type": item["type"], "surface": item.get("surface", ""), "lf0": item["lf0"], "lf1": item["lf1"],
        "predictions": preds, "model_id": dist.model_id, **ranked,
        "min_prob_lf0": s0, "min_prob_lf1": s1, "p_lf0": M.renormalised_p0(s0, s1) if gold else None,
        "tokens_lf0": _tokens(gold[0].tokens, gold[0].token_probs) if gold else [],
        "tokens_lf1": _tokens(gold[1].tokens, gold[1].token_probs) if gold else [],
        "tokens_pred": _tokens(top.tokens, top.token_probs) if top else [],
        **explained.paraphrases(dist, item, fmt),
    }


def fewshot_process(client, item: dict, fmt: str = FOL, beam: int = 5,
                    match: str = "equivalence", grammar: str = "closed", scores: bool = True) -> dict:
    """The item's zero-shot record with the few-shot fields."""
    return fewshot_fields(zeroshot_process(client, item, fmt, beam, match, grammar, scores), item)


def fewshot_fields(rec: dict, item: dict) -> dict:
    """``rec`` with the few-shot fields: the item's ratio and whether the top-1 is LF0 or LF1."""
    rec["ratio"] = float(item["ratio"])
    rec["top1"] = _label(rec["rank_lf0"], rec["rank_lf1"])
    rec["top1_canonical"] = _label(rec["rank_lf0_canonical"], rec["rank_lf1_canonical"])
    rec["top1_equiv"] = _label(rec["rank_lf0_equiv"], rec["rank_lf1_equiv"])
    return rec


def _label(r0: int | None, r1: int | None) -> int | None:
    """0 / 1 when the top-1 prediction is LF0 / LF1, None when it is neither."""
    return 0 if r0 == 0 else 1 if r1 == 0 else None
