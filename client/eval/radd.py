"""`python -m client eval radd`: RADD accuracy, per-class P/R/F1 and confusion (paper Tables 3/4).

Solvers (all in-process, no server):
  prolog     the regularity reasoning of `logic.radd` (identical prompts verified once);
  responses  the models' recorded replies in the benchmark files (`results.choice`, or the
             raw `responses` parsed as the paper did when `results` is absent);
  a callable `choose(instance) -> option number | None` through `evaluate_chooser` (the hook
  the model solver uses).
Writes DIR/summary.json, DIR/summary.md and DIR/results.jsonl.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from client.eval import metrics_radd as M
from generators.radd.instance import RaddInstance
from generators.radd.loader import iter_jsonl
from generators.radd.prompts import parse_choice

DEFAULT_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "radd" / "benchmark"
SOLVERS = ("prolog", "responses", "model")


@dataclass(frozen=True)
class Row:
    """One benchmark line: the parsed instance, the raw row, and where it came from."""

    instance: RaddInstance
    raw: dict[str, Any]
    model: str  # the folder the file lies in (chatgpt, koala, oasst, ...)
    source: str  # path:line

    @property
    def pair(self) -> str:
        return self.instance.pair


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`--data FILE|DIR...`, `--solver`, `--out`, `--limit`. Options the parser already has
    keep their definition, except `--data`, which is widened to take several paths (a single
    path is stored as-is, so a shared data root keeps working for the other suites)."""
    actions = {s: a for a in parser._actions for s in a.option_strings}
    data_default = actions["--data"].default if "--data" in actions else DEFAULT_DATA
    if "--data" in actions:
        parser._handle_conflict_resolve(None, [("--data", actions["--data"])])
    parser.add_argument("--data", nargs="+", type=Path, action=_Paths, default=data_default,
                        help="RADD JSONL files, or folders searched for *_results_*.jsonl "
                             "(a data root holding radd/benchmark works too)")
    if "--solver" not in actions:
        parser.add_argument("--solver", choices=SOLVERS, default="prolog")
    if "--out" not in actions:
        parser.add_argument("--out", type=Path, default=Path("runs/radd"))
    if "--limit" not in actions:
        parser.add_argument("--limit", type=int, default=None, help="first N instances only")


class _Paths(argparse.Action):
    """One path stays a path, several become a list."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values[0] if len(values) == 1 else list(values))


def run(args: argparse.Namespace) -> int:
    data = args.data if isinstance(args.data, (list, tuple)) else [args.data]
    rows = load_rows(data_files(data))
    if args.solver == "prolog":
        rows = unique_instances(rows)
    if getattr(args, "limit", None) is not None:
        rows = rows[: args.limit]
    if args.solver == "prolog":
        records = solve_prolog(rows)
    elif args.solver == "responses":
        records = [record(r, recorded_choice(r.raw, r.instance.prompt_style)) for r in rows]
    else:
        raise SystemExit("--solver model is run by the client (client.eval.radd_model); "
                         "use evaluate_chooser(rows, choose) with a chooser of your own")
    write_outputs(Path(args.out), records, args.solver)
    s = json.loads((Path(args.out) / "summary.json").read_text(encoding="utf-8"))
    print(f"radd {args.solver}: n={s['n']} accuracy={100 * (s['accuracy'] or 0):.1f}% -> {args.out}")
    return 0


# -- data ----------------------------------------------------------------------------------


def data_files(paths: Iterable[Path]) -> list[Path]:
    """Files as given; folders (or a data root holding radd/benchmark) searched recursively."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            root = p / "radd" / "benchmark" if (p / "radd" / "benchmark").is_dir() else p
            files += sorted(root.rglob("*_results_*.jsonl"))
        elif p.is_file():
            files.append(p)
        else:
            raise SystemExit(f"error: no such RADD file or folder: {p}")
    if not files:
        raise SystemExit("error: no RADD result files found")
    return files


def load_rows(files: Sequence[Path]) -> list[Row]:
    return [Row(inst, raw, Path(f).parent.name, inst.source or str(f)) for f in files for inst, raw in iter_jsonl(f)]


def unique_instances(rows: Sequence[Row]) -> list[Row]:
    """The first row of each distinct prompt (the models share their instances)."""
    seen: set[str] = set()
    out = []
    for r in rows:
        key = "\n".join(r.raw["messages"])
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def recorded_choice(raw: dict[str, Any], style: str) -> int | None:
    """The option a model chose: `results.choice` when present, else parsed from `responses`."""
    results = raw.get("results")
    if isinstance(results, dict):
        choice = results.get("choice")
        return int(choice) if choice is not None and str(choice).strip().isdigit() else None
    replies = [_reply_text(r) for r in raw.get("responses") or []]
    return parse_choice(style, replies)


def _reply_text(response: Any) -> str:
    if isinstance(response, str):
        return response
    return response["choices"][0]["message"]["content"]


# -- solvers -------------------------------------------------------------------------------


def record(row: Row, choice: int | None, **extra: Any) -> dict[str, Any]:
    inst = row.instance
    pred = M.reading_of(choice, inst.label_nr, inst.label_name)
    return {"id": row.source, "model": row.model, "pair": inst.pair, "label_nr": inst.label_nr,
            "label_name": inst.label_name, "choice": choice, "pred": pred,
            "correct": pred == inst.label_name, **extra}


def solve_prolog(rows: Sequence[Row]) -> list[dict[str, Any]]:
    from logic.radd import verify_batch

    verdicts = verify_batch([r.instance for r in rows])
    return [record(r, v.answer_option, status=v.status, verdict=v.to_dict()) for r, v in zip(rows, verdicts)]


def evaluate_chooser(rows: Sequence[Row], choose: Callable[[RaddInstance], int | None]) -> list[dict[str, Any]]:
    """The hook for other solvers: records for `choose(instance) -> option number | None`."""
    return [record(r, choose(r.instance)) for r in rows]


# -- summaries -----------------------------------------------------------------------------


def summarise(records: Sequence[dict[str, Any]], solver: str) -> dict[str, Any]:
    out: dict[str, Any] = {"suite": "radd", "solver": solver, **_block(records)}
    models = sorted({r["model"] for r in records})
    if solver != "prolog":
        out["by_model"] = {m: _block([r for r in records if r["model"] == m]) for m in models}
    if solver == "prolog":
        status: dict[str, int] = defaultdict(int)
        for r in records:
            status[r["status"]] += 1
        out["status"] = dict(status)
        out["cite_premises"] = sum(_cites_premises(r["verdict"]) for r in records)
        out["undecided"] = [r["id"] for r in records if r["status"] != "one"]
    return out


def _block(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    gold = [r["label_name"] for r in records]
    pred = [r["pred"] for r in records]
    s = M.summarise(gold, pred)
    pairs = sorted({r["pair"] for r in records})
    s["by_pair"] = {p: M.accuracy(*zip(*[(r["label_name"], r["pred"]) for r in records if r["pair"] == p]))
                    for p in pairs}
    return s


def _cites_premises(verdict: dict[str, Any]) -> bool:
    """Every interpretation's derivation names the premises it used, and each step cites one."""
    for v in verdict["interpretations"].values():
        if not v["premises"] or not all(f"{p}" in " ".join(v["derivation"]) for p in v["premises"]):
            return False
    return True


def markdown(s: dict[str, Any]) -> str:
    blocks = s.get("by_model") or {s["solver"]: s}
    lines = [f"# RADD — solver `{s['solver']}`", "",
             f"n = {s['n']}, accuracy = {_pct(s['accuracy'])}%", ""]
    lines += ["## Precision / recall / F1 per class (Table 3 layout)", "",
              "| model | de dicto P | de dicto R | de dicto F1 | de re P | de re R | de re F1 | accuracy |",
              "|---|---|---|---|---|---|---|---|"]
    for name, b in blocks.items():
        pc = b["per_class"]
        cells = [_num(pc[c][k]) for c in M.CLASSES for k in ("precision", "recall", "f1")]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {_num(b['accuracy'])} |")
    lines += ["", "## Confusion, % of all instances (Table 4 layout; rows gold)", "",
              "| model | gold | de dicto | de re | neither |", "|---|---|---|---|---|"]
    for name, b in blocks.items():
        for g in M.CLASSES:
            row = b["confusion"][g]
            lines.append(f"| {name} | {g.replace('_', ' ')} | " + " | ".join(f"{row[c]:.1f}" for c in M.COLUMNS) + " |")
    pairs = sorted({p for b in blocks.values() for p in b["by_pair"]})
    lines += ["", "## Accuracy (%) per property pair", "",
              "| model | " + " | ".join(pairs) + " |", "|---" * (len(pairs) + 1) + "|"]
    for name, b in blocks.items():
        lines.append(f"| {name} | " + " | ".join(_pct(b["by_pair"].get(p)) for p in pairs) + " |")
    if "status" in s:
        lines += ["", "## Prolog verdicts", "", f"status counts: {s['status']}; derivations citing their "
                  f"premises: {s['cite_premises']}/{s['n']}"]
        if s["undecided"]:
            lines += ["", "Instances the premises do not decide (both readings consistent, or neither):", ""]
            lines += [f"- {i}" for i in s["undecided"]]
            lines += ["", "Both readings are consistent when the two relations name the same entity listed "
                      "with two property values (e.g. one club from two countries). The benchmark's generator "
                      "pairs (relation, value) rows whose values differ and takes the sentence's value from the "
                      "row of the gold reading, so which row it picked, and so the label, is not in the text. "
                      "No reasoning from the premises can recover it; these count as `neither`."]
    return "\n".join(lines) + "\n"


def write_outputs(out: Path, records: Sequence[dict[str, Any]], solver: str) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    s = summarise(records, solver)
    (out / "summary.json").write_text(json.dumps(s, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "summary.md").write_text(markdown(s), encoding="utf-8")
    with (out / "results.jsonl").open("w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return s


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}"


def _num(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m client eval radd", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
