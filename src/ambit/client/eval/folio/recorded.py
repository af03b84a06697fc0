"""Recorded translations: FOL that another system wrote for FOLIO stories, read from a file and
scored by `folio.score` like ambit's own (`ambit eval folio --translations FILE`).

Two formats (`FORMATS`, docs/folio.md "Recorded translations"): `ambit` JSONL, one line per
example, and Logic-LM's `FOLIO_*.json` logic programs (`FORMULA ::: comment` lines, as its parser).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ambit.logic.syntax.dialect import FOLIO, FULL_NAMES
from ambit import _files
from ambit.logic.errors import MAX_CHARS
from ambit.client.eval.recorded import rows

FORMATS = ("auto", "ambit", "logic-lm")
MAX_SAMPLES = 100  # samples of one example: more is a line set aside (100,000 made one 101 MB result line)
MAX_LINE = 16 * 2**20  # bytes of one JSONL line: a longer one is set aside with its number, the rest read
DIALECTS = FULL_NAMES


@dataclass(frozen=True)
class Example:
    """One example's recorded samples (as `folio.score.score_story` takes them)."""

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
    head = _files.read_head(path, 4096).lstrip()
    return "logic-lm" if head.startswith(b"[") else "ambit"


def read(path: str | Path, fmt: str = "auto", default_dialect: str = FOLIO, *,
         max_chars: int = MAX_CHARS) -> Recorded:
    """Read a translations file (ValueError names file, line and field)."""
    if default_dialect not in DIALECTS:
        raise ValueError(f"--from must be one of {', '.join(DIALECTS)}, not {default_dialect!r}")
    path = Path(path)
    if fmt not in FORMATS:
        raise ValueError(f"--translations-format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    # bounds (issue 45): only a regular file is read; a formula over `max_chars` is a failed sample
    try:
        fmt = detect(path) if fmt == "auto" else fmt
        examples = (_read_logic_lm(path, default_dialect, max_chars) if fmt == "logic-lm"
                    else _read_ambit(path, default_dialect, max_chars))
    except FileNotFoundError:
        raise ValueError(f"--translations: no such file {path}") from None
    except OSError as e:  # a link, a FIFO, a device, a folder: one line naming the file
        raise ValueError(f"--translations {e}") from None
    return Recorded(path, fmt, examples)


def _bounded(sample: dict, max_chars: int) -> dict:
    """`sample`, or a failed sample when a formula is over `max_chars` (not echoed: one that
    echoed a 200 MB formula was 419 MB)."""
    formulas = [p["formula"] for p in sample.get("premises") or []] + [sample.get("conclusion") or ""]
    longest = max((len(f) for f in formulas), default=0)
    if longest <= max_chars:
        return sample
    return {"premises": None, "conclusion": None,
            "error": f"a formula of {longest:,} characters, over --max-chars {max_chars:,} (not read)"}


def _add(out: dict[str, Example], ex: Example) -> None:
    if ex.id in out:
        raise ValueError(f"{ex.where}: example_id {ex.id} again (first at {out[ex.id].where})")
    out[ex.id] = ex


def _read_ambit(path: Path, default_dialect: str = FOLIO, max_chars: int = MAX_CHARS) -> dict[str, Example]:
    out: dict[str, Example] = {}
    aside: list[tuple[int, str]] = []

    def set_aside(number: int, why: str) -> bool:  # bad UTF-8 or JSON is an error; a bound broken, a line aside
        if why.startswith(("not UTF-8", "not JSON")):
            return False
        aside.append((number, why))
        return True

    for where, row in rows(path, "--translations", MAX_LINE, set_aside):
        if isinstance(row, dict) and isinstance(row.get("samples"), list) and len(row["samples"]) > MAX_SAMPLES:
            aside.append((int(where.rpartition(":")[2]), f"{len(row['samples']):,} samples, over {MAX_SAMPLES}"))
            continue
        _add(out, _ambit_row(row, where, default_dialect, max_chars))
    if aside:
        shown = "; ".join(f"line {n}: {why}" for n, why in aside[:5]) + ("; …" if len(aside) > 5 else "")
        print(f"warning: {path}: {len(aside)} line(s) set aside ({shown}); their examples count as untranslated",
              file=sys.stderr, flush=True)
    return out


def _ambit_row(row: Any, where: str, default_dialect: str = FOLIO, max_chars: int = MAX_CHARS) -> Example:
    if not isinstance(row, dict):
        raise ValueError(f"{where}: a line must be a JSON object")
    if "example_id" not in row:
        raise ValueError(f"{where}: missing field 'example_id'")
    if isinstance(row["example_id"], bool) or not isinstance(row["example_id"], (str, int)):
        raise ValueError(f"{where}: field 'example_id' must be a string or a whole number, not "
                         f"{type(row['example_id']).__name__}")
    dialect = row.get("dialect", default_dialect)
    if dialect not in DIALECTS:
        raise ValueError(f"{where}: field 'dialect' must be one of {', '.join(DIALECTS)}, not {dialect!r}")
    samples = row.get("samples")
    if not isinstance(samples, list) or not samples:
        raise ValueError(f"{where}: field 'samples' must be a non-empty list")
    return Example(str(row["example_id"]), dialect,
                   tuple(_bounded(_ambit_sample(s, f"{where}: samples[{i}]"), max_chars) for i, s in enumerate(samples)),
                   where)


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


_ID = re.compile(r"^FOLIO_[A-Za-z0-9-]+?_(.+)$")  # Logic-LM's FOLIO_<split>_<example id>


def _read_logic_lm(path: Path, dialect: str = FOLIO, max_chars: int = MAX_CHARS) -> dict[str, Example]:
    data = _files.read_json(path, unicode_text=True)  # bad JSON, too deep, a huge integer: a LineError naming file and line
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
        if len(progs) > MAX_SAMPLES:
            raise ValueError(f"{where}: {len(progs):,} logic programs, over {MAX_SAMPLES} per example")
        where = f"{where} ({entry['id']})"
        _add(out, Example(ex_id, dialect, tuple(_bounded(program_sample(p), max_chars) for p in progs), where))
    return out


def program_sample(program: str) -> dict:
    """One Logic-LM program as a sample; one without its sections is a failed sample saying so."""
    for section in ("Premises:", "Conclusion:"):
        if section not in program:
            return {"premises": None, "conclusion": None, "error": f"no '{section}' section"}
    head, _, tail = program.partition("Conclusion:")
    prem = [_line(x) for x in head.split("Premises:", 1)[1].split("\n") if x.strip()]
    conc = [_line(x) for x in tail.split("\n") if x.strip()]
    if not conc:
        return {"premises": None, "conclusion": None, "error": "an empty 'Conclusion:' section"}
    return {"premises": prem, "conclusion": conc[0], "error": None}


def _line(line: str) -> dict:
    formula, sep, comment = line.partition(":::")
    return {"formula": formula.strip(), **({"comment": comment.strip()} if sep and comment.strip() else {})}


def coverage(rec: Recorded, items: Sequence[str], split: str) -> dict:
    """How much of the run (`items`: its example ids) the file covers (metrics.coverage)."""
    from ambit.client.eval import metrics as M

    wanted = set(items)
    unmatched = [e.id for e in rec.examples.values() if e.id not in wanted]
    cov = M.coverage(list(items), sum(i in rec.examples for i in items), unmatched,
                     f"the example ids of split {split!r}")
    return {**cov, "what": "recorded translations", "option": "--translations", "file": str(rec.path)}


def cross_check(records: Sequence[dict], dialects: dict[str, str] | None = None,
                time_limit: float = 10.0, free_variables: str | None = None) -> dict:
    """Each definite label re-decided by E alone and by Z3 alone: confirmed or not, per prover."""
    from ambit.client.eval.folio.score import read
    from ambit.logic.provers import portfolio
    from ambit.logic.provers.portfolio_members import PrologMember, members
    from ambit.logic.provers.portfolio_question import STORY_PARTS, Budget, story

    status = {"True": ("unsat", "sat"), "False": ("sat", "unsat"), "Uncertain": ("sat", "sat")}
    provers = [m for m in members() if not isinstance(m, PrologMember)]  # the portfolio's others, as installed
    out: dict = {m.name: Counter() for m in provers}
    contradicted: list[dict] = []
    for r in records:
        fmt = (dialects or {}).get(str(r.get("id")), FOLIO)
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
