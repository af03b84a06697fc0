"""Implicature from recorded answers: another system's answers to the test pairs, scored as a
model run is (`ambit eval implicature --responses FILE`; no model). The contract
(docs/evaluation.md, "Recorded answers"): JSONL, one line per example, template and k:

    {"id": "test-000/t1/k0"}                               the item's id in this run, or
    {"example_id": "test-000", "template": 1, "k": 0}      the example (row of the test CSV), template, k;
    and either "reply": "..."                              a generated answer, read as the paper's
                                                           code reads it (generate.read_reply), or
    "logprob_yes": -0.3, "logprob_no": -1.9                per-option log-likelihoods of " yes" and
                                                           " no" after the prompt (the paper's ranking)

A file holds one kind of answer: replies are scored by the generate protocol (the templates of
alignment_prompt_templates.csv), log-likelihoods by the score protocol (prompt_templates.txt).
An item with no line counts as wrong and is counted (`items_without_responses`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from ambit.client.eval.implicature import generate as G


@dataclass(frozen=True)
class Responses:
    """A responses file, read: its lines by item key, and the protocol its answers need."""

    path: Path
    lines: dict[str, dict]
    protocol: str  # generate (replies) | score (log-likelihoods)


def keys(x: dict) -> tuple[str, ...]:
    """The keys an item (or a line) is known by: its id, and example/template/k."""
    by_parts = (f"{x['example_id']}|t{int(x['template'])}|k{int(x['k'])}"
                if all(x.get(f) is not None for f in ("example_id", "template", "k")) else None)
    return tuple(str(k) for k in (x.get("id"), by_parts) if k)


def read(path: str | Path) -> Responses:
    """Read a responses file; a malformed line raises ValueError naming the file, line and field."""
    from ambit import _files

    path = Path(path)
    if not path.is_file():
        raise ValueError(f"--responses: no such file {path}")
    lines: dict[str, dict] = {}
    kinds: dict[str, str] = {}
    for ln in _files.iter_jsonl_lines(path):
        where = f"{path}:{ln.number}"
        if ln.problem:
            raise ValueError(f"{where}: {ln.problem}")
        if not ln.text.strip():
            continue
        row = _line(ln.text, where)
        kinds.setdefault("generate" if "reply" in row else "score", where)
        for k in keys(row):
            if k in lines:
                raise ValueError(f"{where}: item {k!r} again (first at {lines[k]['_where']})")
            lines[k] = row
    if len(kinds) > 1:
        raise ValueError(f"{kinds['score']}: log-likelihoods, but {kinds['generate']} has a reply: "
                         f"a responses file holds one kind of answer")
    return Responses(path, lines, next(iter(kinds), "score"))


def _line(text: str, where: str) -> dict:
    try:
        row = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{where}: not JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(row, dict):
        raise ValueError(f"{where}: a line must be a JSON object")
    if "id" not in row and not all(f in row for f in ("example_id", "template", "k")):
        raise ValueError(f"{where}: name the item by 'id', or by 'example_id', 'template' and 'k'")
    for f in ("template", "k"):
        if f in row and not (isinstance(row[f], (int, str)) and str(row[f]).isdigit()):
            raise ValueError(f"{where}: field '{f}' must be a whole number")
    if "reply" in row:
        if not isinstance(row["reply"], str):
            raise ValueError(f"{where}: field 'reply' must be a string")
    else:
        for f in ("logprob_yes", "logprob_no"):
            x = row.get(f)
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x > 0:
                raise ValueError(f"{where}: give 'reply', or both 'logprob_yes' and 'logprob_no' "
                                 f"(log-likelihoods, <= 0); field '{f}' is {x!r}")
    row["_where"] = where
    return row


def find(resp: Responses, item: dict) -> dict | None:
    return next((resp.lines[k] for k in keys(item) if k in resp.lines), None)


def record(item: dict, row: dict | None, protocol: str) -> dict:
    """The record a model run would write for `item`, from its recorded answer (None: no line:
    wrong, with `recorded` false)."""
    base = {"template": item["template"], "k": item["k"], "label": item["label"],
            "example_id": item.get("example_id"), "recorded": row is not None}
    if row is None:
        extra = {"protocol": "generate", "valid": False} if protocol == "generate" else {}
        return {**base, **extra, "predicted": None, "correct": False}
    if protocol == "generate":
        span = G.answer_span(row["reply"])
        answer = G.read_reply(row["reply"])
        return {**base, "protocol": "generate", "cot": False, "reply": row["reply"], "finish": None,
                "chat_template": None, "predicted": answer, "valid": answer is not None,
                "correct": item["label"] in span}
    coh = row[f"logprob_{item['coherent_word'].strip()}"]
    inc = row[f"logprob_{item['incoherent_word'].strip()}"]
    return {**base, "logprob_coherent": coh, "logprob_incoherent": inc, "correct": coh > inc,
            "predicted": item["label"] if coh > inc else item["incoherent_word"].strip()}
