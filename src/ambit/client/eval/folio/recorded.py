"""Recorded translations: FOL that another system wrote for FOLIO stories, read from a file and
scored by `folio_score` like ambit's own decoded ones (`ambit eval folio --translations FILE`).

Two formats (`FORMATS`; `auto` detects which):
- `ambit`: JSONL, one line per example (docs/folio.md, "Recorded translations"):
  `{"example_id": ID, "dialect": "folio"|"nltk"|"tptp", "samples": [{"premises": [..],
  "conclusion": ".."}, ...]}`; a sample the system failed to produce is
  `{"premises": null, "conclusion": null, "error": "why"}`. A premise is a formula, or
  `{"formula": .., "sentence": ..}` with the sentence it translates. `dialect` defaults to folio.
- `logic-lm`: Logic-LM's `outputs/logic_programs/FOLIO_*.json` (a JSON list; an entry's `id`
  is `FOLIO_<split>_<example id>`, so `FOLIO_dev_N` is example N; each of `raw_logic_programs`
  is a sample). A program's lines between `Premises:` and `Conclusion:` are the premises, the
  first line after `Conclusion:` the conclusion, each `FORMULA ::: comment`, as Logic-LM's own
  parser reads them; the comment is the sentence the formula translates.

`cross_check` re-decides each definite label with E and with Z3 alone, on the same formulas.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMATS = ("auto", "ambit", "logic-lm")
DIALECTS = ("folio", "nltk", "tptp")


@dataclass(frozen=True)
class Example:
    """One example's recorded samples (each as `folio_score.score_story` takes it), their dialect,
    and where in the file they came from."""

    id: str
    dialect: str
    samples: tuple[dict, ...]
    where: str


@dataclass(frozen=True)
class Recorded:
    """A translations file, read: its format and its examples by id."""

    path: Path
    format: str
    examples: dict[str, Example]


def detect(path: Path) -> str:
    """`logic-lm` when the file is one JSON list, else `ambit` (JSONL)."""
    with open(path, encoding="utf-8") as fh:
        head = fh.read(4096).lstrip()
    return "logic-lm" if head.startswith("[") else "ambit"


def read(path: str | Path, fmt: str = "auto") -> Recorded:
    """Read a translations file; a malformed one raises ValueError naming the file, the line (or
    entry) and the field."""
    path = Path(path)
    if fmt not in FORMATS:
        raise ValueError(f"--translations-format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if not path.is_file():
        raise ValueError(f"--translations: no such file {path}")
    fmt = detect(path) if fmt == "auto" else fmt
    examples = _read_logic_lm(path) if fmt == "logic-lm" else _read_ambit(path)
    return Recorded(path, fmt, examples)


def _add(out: dict[str, Example], ex: Example) -> None:
    if ex.id in out:
        raise ValueError(f"{ex.where}: example_id {ex.id} again (first at {out[ex.id].where})")
    out[ex.id] = ex


# --------------------------------------------------------------------------- ambit's JSONL


def _read_ambit(path: Path) -> dict[str, Example]:
    out: dict[str, Example] = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{where}: not JSON ({e.msg} at column {e.colno})") from None
            _add(out, _ambit_row(row, where))
    return out


def _ambit_row(row: Any, where: str) -> Example:
    if not isinstance(row, dict):
        raise ValueError(f"{where}: a line must be a JSON object")
    if "example_id" not in row:
        raise ValueError(f"{where}: missing field 'example_id'")
    dialect = row.get("dialect", "folio")
    if dialect not in DIALECTS:
        raise ValueError(f"{where}: field 'dialect' must be one of {', '.join(DIALECTS)}, not {dialect!r}")
    samples = row.get("samples")
    if not isinstance(samples, list) or not samples:
        raise ValueError(f"{where}: field 'samples' must be a non-empty list")
    return Example(str(row["example_id"]), dialect,
                   tuple(_ambit_sample(s, f"{where}: samples[{i}]") for i, s in enumerate(samples)), where)


def _ambit_sample(s: Any, where: str) -> dict:
    if not isinstance(s, dict):
        raise ValueError(f"{where}: a sample must be a JSON object")
    prem, conc, err = s.get("premises"), s.get("conclusion"), s.get("error")
    if err is not None and not isinstance(err, str):
        raise ValueError(f"{where}: field 'error' must be a string")
    if prem is None or conc is None:
        if prem is not None or conc is not None:
            raise ValueError(f"{where}: 'premises' and 'conclusion' are both given or both null")
        return {"premises": None, "conclusion": None, "error": err or "no translation (no reason given)"}
    if not isinstance(prem, list):
        raise ValueError(f"{where}: field 'premises' must be a list (or null)")
    out = []
    for i, p in enumerate(prem):
        if isinstance(p, dict) and isinstance(p.get("formula"), str):
            s_ = p.get("sentence")
            if s_ is not None and not isinstance(s_, str):
                raise ValueError(f"{where}: premises[{i}].sentence must be a string")
            out.append({"formula": p["formula"], **({"sentence": s_} if s_ else {})})
        elif isinstance(p, str):
            out.append({"formula": p})
        else:
            raise ValueError(f"{where}: premises[{i}] must be a formula string or "
                             f"{{\"formula\": .., \"sentence\": ..}}")
    if not isinstance(conc, str):
        raise ValueError(f"{where}: field 'conclusion' must be a formula string (or null)")
    return {"premises": out, "conclusion": conc, "error": err}


# --------------------------------------------------------------------------- Logic-LM


_ID = re.compile(r"^FOLIO_[A-Za-z0-9-]+?_(.+)$")  # Logic-LM's FOLIO_<split>_<example id>


def _read_logic_lm(path: Path) -> dict[str, Example]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: Logic-LM's logic programs are a JSON list")
    out: dict[str, Example] = {}
    for k, entry in enumerate(data):
        where = f"{path}: entry {k}"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: must be a JSON object")
        raw_id = entry.get("id")
        if not isinstance(raw_id, (str, int)) or not str(raw_id).strip():
            raise ValueError(f"{where}: field 'id' must be FOLIO_<split>_<example id> (FOLIO_dev_N), not {raw_id!r}")
        m = _ID.match(str(raw_id))
        ex_id = m.group(1) if m else str(raw_id)
        ex_id = str(int(ex_id)) if ex_id.isdigit() else ex_id
        progs = entry.get("raw_logic_programs")
        if not isinstance(progs, list) or not progs or not all(isinstance(p, str) for p in progs):
            raise ValueError(f"{where}: field 'raw_logic_programs' must be a non-empty list of strings")
        where = f"{where} ({entry['id']})"
        _add(out, Example(ex_id, "folio", tuple(program_sample(p) for p in progs), where))
    return out


def program_sample(program: str) -> dict:
    """One Logic-LM program as a sample: premises (with their `:::` comments) and the conclusion;
    a program without its `Premises:` and `Conclusion:` sections is a failed sample that says so."""
    if "Premises:" not in program:
        return {"premises": None, "conclusion": None, "error": "no 'Premises:' section"}
    if "Conclusion:" not in program:
        return {"premises": None, "conclusion": None, "error": "no 'Conclusion:' section"}
    head, _, tail = program.partition("Conclusion:")
    prem = [_line(x) for x in head.split("Premises:", 1)[1].split("\n") if x.strip()]
    conc = [_line(x) for x in tail.split("\n") if x.strip()]
    if not conc:
        return {"premises": None, "conclusion": None, "error": "an empty 'Conclusion:' section"}
    return {"premises": prem, "conclusion": conc[0], "error": None}


def _line(line: str) -> dict:
    formula, sep, comment = line.partition(":::")
    return {"formula": formula.strip(), **({"comment": comment.strip()} if sep and comment.strip() else {})}


# --------------------------------------------------------------------------- cross-check


def cross_check(records: Sequence[dict], dialects: dict[str, str] | None = None,
                time_limit: float = 10.0, free_variables: str | None = None) -> dict:
    """Each definite label (True, False, Uncertain) of `records` re-decided by E alone and by Z3
    alone on the same formulas, part by part (premises ∧ ¬conclusion, premises ∧ conclusion):
    per prover, the labels it `confirmed` (both parts as ambit's), `contradicted` (a part the
    other way) and left `undecided`, with the contradicted examples listed. Formulas are read as
    the scoring read them (`dialects` by example id, `free_variables`)."""
    from ambit.client.eval.folio.score import read
    from ambit.logic.provers import eprover
    from ambit.logic.provers import portfolio
    from ambit.logic.provers import z3_prover
    from ambit.logic.provers.portfolio_members import EMember, Z3Member
    from ambit.logic.provers.portfolio_question import STORY_PARTS, Budget, story

    status = {"True": ("unsat", "sat"), "False": ("sat", "unsat"), "Uncertain": ("sat", "sat")}
    provers = [m for m, ok in ((EMember(), eprover.available()), (Z3Member(), z3_prover.available())) if ok]
    out: dict = {m.name: Counter() for m in provers}
    contradicted: list[dict] = []
    for r in records:
        fmt = (dialects or {}).get(str(r.get("id")), "folio")
        for j, s in enumerate(r["samples"]):
            if s.get("label") not in status:
                continue
            forms = [read(x["text"], fmt, free_variables)[0] for x in s["sentences"]]
            q = story(forms[:-1], forms[-1])
            want = dict(zip(STORY_PARTS, status[s["label"]]))
            for m in provers:
                settled, _, _ = portfolio.race(q, Budget(time_limit=time_limit, proof_object=False), [m])
                got = {p: a.status for p, a in settled.items()}
                if any(got[p] != want[p] for p in got):
                    out[m.name]["contradicted"] += 1
                    contradicted.append({"id": r.get("id"), "sample": j, "prover": m.name, "label": s["label"],
                                         "parts": got})
                elif len(got) == len(STORY_PARTS):
                    out[m.name]["confirmed"] += 1
                else:
                    out[m.name]["undecided"] += 1
    return {"labels": sum(1 for r in records for s in r["samples"] if s.get("label") in status),
            "provers": {k: {x: v[x] for x in ("confirmed", "contradicted", "undecided")} for k, v in out.items()},
            "contradicted": contradicted}
