"""AmP from recorded predictions: another system's parses of AmP's test items (`ambit eval
amp-zeroshot|amp-fewshot --predictions FILE`, in the contract of docs/evaluation.md, "Recorded
predictions"), scored as a model run's. FIM and Fig. 3 need both LFs' log-probabilities on every
line; where any line lacks them they are reported absent (FDM needs only the top-1 prediction)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ambit.client.eval import explained
from ambit.client.eval import metrics as M
from ambit.client.eval.amp import matching as MT
from ambit.client.eval.recorded import Keyed, shown

NO_SCORES = ("n/a: the predictions file gives no log-probabilities of LF0 and LF1 "
             "(lf0_logprobs, lf1_logprobs) for every item")
MAX_PREDICTIONS = 100  # an n-best list longer than this is refused before any of it is read (ZM_k needs 5)
MAX_TOKENS = 4_096  # log-probabilities of one gold LF: one per token, and an LF has at most 4,096 characters


@dataclass(frozen=True)
class Predictions(Keyed):
    """A predictions file, read: its lines by item key, and whether every line scores both LFs."""

    scored: bool = True

    PARTS = ("utterance", "type")
    HOW = "'utterance' and 'type' (and 'ratio')"
    OTHER_NAMES = "or lines naming their item by 'type' and 'utterance' (and 'ratio' in few-shot)"
    WHAT, OPTION = "recorded predictions", "--predictions"

    @staticmethod
    def keys(item_or_line: dict) -> tuple[str, ...]:
        """The keys an item is known by: its id, and (type, utterance, ratio)."""
        ratio = item_or_line.get("ratio")
        surface = item_or_line.get("utterance", item_or_line.get("surface"))
        kind = item_or_line.get("type")
        by_text = f"{kind}|{surface}|{'' if ratio is None else float(ratio)}" if kind and surface else None
        return tuple(str(k) for k in (item_or_line.get("id"), by_text) if k)

    @staticmethod
    def name(row: dict) -> str:
        """How a line names its item: its id, else its type and utterance (and ratio)."""
        if row.get("id") is not None:
            return str(row["id"])
        ratio = "" if row.get("ratio") is None else f" r={float(row['ratio'])}"
        return f"{row['type']}: {row['utterance']}{ratio}"


def read(path: str | Path) -> Predictions:
    """Read a predictions file; a malformed line raises ValueError naming file, line and field."""
    lines = Predictions.read_lines(Path(path), _line)
    scored = all("lf0_logprobs" in row and "lf1_logprobs" in row for row in lines.values())
    return Predictions(Path(path), lines, scored)


def _line(row: dict, where: str) -> dict:
    for f in ("type", "utterance"):
        if f in row and not isinstance(row[f], str):
            raise ValueError(f"{where}: field '{f}' must be a string, not {shown(row[f])}")
    ratio = row.get("ratio")
    if ratio is not None and not (_number(ratio) and 0 <= ratio <= 1):
        raise ValueError(f"{where}: field 'ratio' must be a number from 0 to 1 (the share of LF0 demonstrations), "
                         f"not {shown(ratio)}")
    preds = row.get("predictions")
    if not isinstance(preds, list):
        raise ValueError(f"{where}: field 'predictions' must be a list (best first)")
    if len(preds) > MAX_PREDICTIONS:
        raise ValueError(f"{where}: field 'predictions' holds {len(preds):,} predictions; at most "
                         f"{MAX_PREDICTIONS} are read per item (ZM_k needs the top 5)")
    row["predictions"] = [_prediction(p, f"{where}: predictions[{i}]") for i, p in enumerate(preds)]
    for g in ("lf0", "lf1"):
        lp = row.get(f"{g}_logprobs")
        if lp is not None and (not isinstance(lp, list) or not lp or len(lp) > MAX_TOKENS
                               or not all(_number(x) and x <= 0 for x in lp)):
            raise ValueError(f"{where}: field '{g}_logprobs' must be a non-empty list of at most {MAX_TOKENS:,} "
                             "log-probabilities (<= 0)")
        toks = row.get(f"{g}_tokens")
        if toks is not None and (not isinstance(toks, list) or lp is None or len(toks) != len(lp)
                                 or not all(isinstance(t, str) for t in toks)):
            raise ValueError(f"{where}: field '{g}_tokens' must be a list of strings as long as '{g}_logprobs'")
    return row


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _prediction(p: Any, where: str) -> dict:
    if isinstance(p, str):
        return {"lf": p, "score": None}
    if isinstance(p, dict) and isinstance(p.get("lf"), str):
        score = p.get("score")
        if score is not None and not _number(score):
            raise ValueError(f"{where}.score must be a number")
        return {"lf": p["lf"], "score": score}
    raise ValueError(f"{where} must be an LF string or {{\"lf\": .., \"score\": ..}}")


def _scores(row: dict, g: str) -> tuple[float | None, list[dict]]:
    """(min token probability, tokens with their probabilities) of a gold LF; (None, []) when absent."""
    lp = row.get(f"{g}_logprobs")
    if not lp:
        return None, []
    probs = [math.exp(x) for x in lp]
    toks = row.get(f"{g}_tokens") or [""] * len(probs)
    return min(probs), [{"text": t, "prob": p} for t, p in zip(toks, probs)]


def record(item: dict, row: dict | None, fmt: str, match: str) -> dict:
    """A model run's record for `item` from its line (None: no prediction, `recorded` false)."""
    from ambit.client.eval.amp.process import ranks

    preds = []
    for p in (row or {}).get("predictions", []):
        canon = MT.canonical_or_none(p["lf"], fmt)
        preds.append({"text": p["lf"], "canonical": canon, "status": "OK" if canon is not None else "PARSE_ERROR",
                      "logprob": p["score"], "min_prob": None, "probability": None})
    ranked = ranks(preds, item, fmt, match)
    (s0, t0), (s1, t1) = _scores(row or {}, "lf0"), _scores(row or {}, "lf1")
    scored = s0 is not None and s1 is not None
    top = SimpleNamespace(text=preds[0]["text"] if preds else "")
    dist = SimpleNamespace(candidates=[top] if preds else [], classes=[])
    return {
        "type": item["type"], "surface": item.get("surface", ""), "lf0": item["lf0"], "lf1": item["lf1"],
        "predictions": preds, "model_id": "recorded", "recorded": row is not None, **ranked,
        "min_prob_lf0": s0, "min_prob_lf1": s1, "p_lf0": M.renormalised_p0(s0, s1) if scored else None,
        "tokens_lf0": t0, "tokens_lf1": t1, "tokens_pred": [],
        **explained.paraphrases(dist, item, fmt),
    }
