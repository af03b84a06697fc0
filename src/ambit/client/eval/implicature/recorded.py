"""Implicature from recorded answers: another system's replies or yes/no log-likelihoods to the
test pairs (`ambit eval implicature --responses FILE`, in the contract of docs/evaluation.md,
"Recorded answers"), scored as a model run's. An item with no line counts as wrong and is counted
apart (`items_without_responses`, `missing`, `coverage`), never as an unparseable reply."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ambit.client.eval.implicature import generate as G
from ambit.client.eval.recorded import Keyed, check_name, shown


@dataclass(frozen=True)
class Responses(Keyed):
    """A responses file, read: its lines by item key, and the protocol its answers need."""

    protocol: str = "score"  # generate (replies) | score (log-likelihoods)

    PARTS = ("example_id", "template", "k")
    HOW = "'example_id', 'template' and 'k'"
    OTHER_NAMES = f"or lines naming their item by {HOW}"
    WHAT, OPTION = "recorded answers", "--responses"

    @staticmethod
    def keys(x: dict) -> tuple[str, ...]:
        """The keys an item (or a line) is known by: its id, and example/template/k."""
        by_parts = (f"{x['example_id']}|t{int(x['template'])}|k{int(x['k'])}"
                    if all(x.get(f) is not None for f in ("example_id", "template", "k")) else None)
        return tuple(str(k) for k in (x.get("id"), by_parts) if k)

    @staticmethod
    def name(row: dict) -> str:
        """How a line names its item: its id, else example/template/k."""
        return str(row["id"]) if row.get("id") is not None else f"{row['example_id']}/t{row['template']}/k{row['k']}"


def read(path: str | Path) -> Responses:
    """Read a responses file; a malformed line raises ValueError naming file, line and field."""
    lines = Responses.read_lines(Path(path), _line)
    kinds: dict[str, str] = {}
    for row in lines.values():  # in file order
        kinds.setdefault("generate" if "reply" in row else "score", row["_where"])
    if len(kinds) > 1:
        raise ValueError(f"{kinds['score']}: log-likelihoods, but {kinds['generate']} has a reply: "
                         f"a responses file holds one kind of answer")
    return Responses(Path(path), lines, next(iter(kinds), "score"))


def _line(row: dict, where: str) -> dict:
    check_name(row, "example_id", where)
    for f in ("template", "k"):
        if f in row and not (isinstance(row[f], (int, str)) and not isinstance(row[f], bool)
                             and str(row[f]).isdigit() and len(str(row[f])) <= 6):
            raise ValueError(f"{where}: field '{f}' must be a whole number, not {shown(row[f])}")
    if "reply" in row:
        if not isinstance(row["reply"], str):
            raise ValueError(f"{where}: field 'reply' must be a string")
    else:
        for f in ("logprob_yes", "logprob_no"):
            x = row.get(f)
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x > 0:
                raise ValueError(f"{where}: give 'reply', or both 'logprob_yes' and 'logprob_no' "
                                 f"(log-likelihoods, <= 0); field '{f}' is {shown(x)}")
    return row


def record(item: dict, row: dict | None, protocol: str) -> dict:
    """A model run's record for `item` from its answer (None: no line: wrong, `recorded` false)."""
    base = {**G.item_fields(item), "recorded": row is not None}
    if row is None:
        extra = {"protocol": "generate", "valid": False} if protocol == "generate" else {}
        return {**base, **extra, "predicted": None, "correct": False}
    if protocol == "generate":
        return G.reply_record(base, item, row["reply"], False, None, None)
    coh = row[f"logprob_{item['coherent_word'].strip()}"]
    inc = row[f"logprob_{item['incoherent_word'].strip()}"]
    return {**base, "logprob_coherent": coh, "logprob_incoherent": inc, "correct": coh > inc,
            "predicted": item["label"] if coh > inc else item["incoherent_word"].strip()}
