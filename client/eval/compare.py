"""``python -m client eval compare RUN_DIR... --out DIR [--label RUN=NAME[:SIZE]]...``: finished
runs laid side by side in the papers' tables and figures.

Each run directory holds ``run.json`` (the run key) and ``summary.json``; a ``client eval all``
directory stands for each suite it ran. A run is named by its model (``--label`` renames it and
may give its size, ``135M``, ``1.7B``, for the accuracy-against-size plot). Runs of one suite
that differ in protocol (beam, grammar, match, items source, answer parser, protocol, dtype, ...)
are still laid side by side, and the differences are listed above that suite's tables.

Writes ``compare.md``, ``compare.json`` (every number of the tables, each under its run's label,
with the run's directory in ``runs``) and figures (``client.eval.compare_figures``):
AmP Fig. 2, Table 2, Fig. 3, Table 3, Fig. 6 (canonical exact match, the paper's, beside
equivalence match); RADD Tables 3 and 4 per model and prompt style; implicature Table 1 (mean ±
std over templates at each k), by type, and accuracy against k and against size, with the human
(86.2%) and random (50%) lines.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from client.eval import report as R
from client.eval.store import RUN_KEY, read_records

SUITES = ("amp-zeroshot", "amp-fewshot", "radd", "implicature")
# protocol fields compared across runs of a suite (run.json, else summary.json), with the value
# a run that does not record one ran under
PROTOCOL_FIELDS: dict[str, Any] = {
    "beam": None, "grammar": None, "match": None, "items_source": None, "ingredients": None,
    "format": None, "answer_parser": "paper", "protocol": None, "solver": None, "source": None,
    "dtype": "server default", "cot": False, "template_file": None, "max_new_tokens": None,
    "prompt_format": None, "styles": None, "limit": None, "limit_per_pair": None, "seed": None,
    "ks": None, "templates": None, "types": None, "ratios": None,
}
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*([kKmMbBtT]?)$")
_SCALE = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}


@dataclass
class Run:
    """One finished suite run: where it is, what to call it, what it recorded."""

    dir: Path
    suite: str
    key: dict[str, Any]
    summary: dict[str, Any]
    label: str = ""
    size: float | None = None
    size_text: str | None = None
    _records: list[dict] | None = field(default=None, repr=False)

    @property
    def model(self) -> str:
        return str(self.summary.get("model") or self.key.get("model") or self.summary.get("solver") or "?")

    def records(self) -> list[dict]:
        if self._records is None:
            self._records = read_records(self.dir)
        return self._records

    def protocol(self) -> dict[str, Any]:
        """The protocol fields this suite's runs record, with defaults for the unrecorded."""
        out = {}
        for name, default in PROTOCOL_FIELDS.items():
            value = self.key.get(name, self.summary.get(name, default))
            if value is not None:
                out[name] = value
        return out


# ---------------------------------------------------------------------------- loading

def parse_size(text: str) -> float:
    """``135M`` → 1.35e8, ``1.7B`` → 1.7e9, ``350000`` → 3.5e5."""
    m = _SIZE.match(text.strip())
    if not m:
        raise ValueError(f"size {text!r}: expected a number with an optional k/M/B/T suffix (e.g. 135M, 1.7B)")
    return float(m.group(1)) * _SCALE[m.group(2).lower()]


def parse_label(text: str) -> tuple[str, str, str | None]:
    """``RUN=NAME[:SIZE]`` → (RUN, NAME, SIZE or None); a last ``:part`` that is no size stays in NAME."""
    run, sep, rest = text.partition("=")
    if not sep or not run or not rest:
        raise ValueError(f"--label {text!r}: expected RUN=NAME[:SIZE]")
    name, colon, size = rest.rpartition(":")
    if colon and name and _SIZE.match(size.strip()):
        return run, name, size.strip()
    return run, rest, None


def _read_json(path: Path, what: str) -> dict:
    if not path.is_file():
        raise FileNotFoundError(f"{path.parent}: no {path.name} ({what})")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON ({e})") from None


def load_run_dir(directory: Path) -> list[Run]:
    """The suite runs of a directory: itself, or each suite of a ``client eval all`` index."""
    summary = _read_json(directory / "summary.json", "not a finished client eval run")
    if summary.get("suite") == "all":
        runs = []
        for entry in summary.get("suites", {}).values():
            runs += load_run_dir(directory / entry["dir"])
        return runs
    suite = summary.get("suite")
    if suite not in SUITES:
        raise ValueError(f"{directory}: summary.json names suite {suite!r}, not one of {', '.join(SUITES)}")
    return [Run(directory, suite, _read_json(directory / RUN_KEY, "the run key"), summary)]


def load_runs(dirs: list[Path], labels: list[str]) -> list[Run]:
    """Every run of ``dirs``, labelled: ``--label`` when one names the directory (as given, or
    its last part), else the model id (with the directory's name when two runs of a suite share it)."""
    given: dict[str, tuple[str, str | None]] = {}
    for text in labels:
        run, name, size = parse_label(text)
        if size is not None:
            parse_size(size)
        given[run.rstrip("/")] = (name, size)
    runs, used = [], set()
    for d in dirs:
        for run in load_run_dir(Path(d)):
            keys = [str(d).rstrip("/"), Path(d).name, str(run.dir).rstrip("/"), run.dir.name]
            hit = next((k for k in keys if k in given), None)
            if hit is not None:
                used.add(hit)
                run.label, run.size_text = given[hit]
                run.size = parse_size(run.size_text) if run.size_text else None
            runs.append(run)
    unused = set(given) - used
    if unused:
        raise ValueError(f"--label: no run directory {', '.join(sorted(unused))} among {', '.join(map(str, dirs))}")
    for run in runs:
        if not run.label:
            twins = [r for r in runs if r.suite == run.suite and r.model == run.model and not r.label]
            run.label = run.model if len(twins) == 1 else f"{run.model} ({run.dir.name})"
    return runs


def differences(runs: list[Run]) -> dict[str, dict[str, Any]]:
    """{field: {label: value}} for each protocol field whose value differs among ``runs``."""
    protocols = {r.label: r.protocol() for r in runs}
    names = sorted({k for p in protocols.values() for k in p})
    out = {}
    for name in names:
        values = {label: p.get(name) for label, p in protocols.items()}
        if len({json.dumps(v, sort_keys=True) for v in values.values()}) > 1:
            out[name] = values
    return out


# ---------------------------------------------------------------------------- tables

def amp_zeroshot(runs: list[Run]) -> dict:
    """Fig. 2 (LF0/LF1 accuracy), Table 2 (ZM_5), Fig. 3 (P(LF0)), canonical beside equivalence."""
    fig2, table2, fig3 = {}, {}, {}
    for r in runs:
        by = r.summary["by_type"]
        fig2[r.label] = {t: {"n": v["n"], "match": r.summary.get("match"),
                             "lf0": v["acc_lf0"], "lf1": v["acc_lf1"],
                             "lf0_canonical": v.get("acc_lf0_canonical"), "lf1_canonical": v.get("acc_lf1_canonical"),
                             "lf0_equivalence": v.get("acc_lf0_equiv"), "lf1_equivalence": v.get("acc_lf1_equiv")}
                         for t, v in by.items()}
        table2[r.label] = {t: {"n": v["n"], "zm5_canonical": (v.get("zm_canonical") or {}).get("5"),
                               "zm5_equivalence": (v.get("zm_equiv") or {}).get("5")} for t, v in by.items()}
        fig3[r.label] = {t: {"n": sum(x.get("type") == t and x.get("p_lf0") is not None for x in r.records()),
                             "mean": v["p_lf0_mean"], "std": v["p_lf0_std"]} for t, v in by.items()}
    return {"fig2": fig2, "table2": table2, "fig3": fig3}


def amp_fewshot(runs: list[Run]) -> dict:
    """Table 3 (FDM, FIM) and Fig. 6 (LF0 accuracy against the ratio of LF0 demonstrations)."""
    table3, fig6 = {}, {}
    for r in runs:
        by = r.summary["by_type"]
        table3[r.label] = {t: {"n": v["n"], "fdm_canonical": v.get("fdm_canonical"), "fdm_equivalence": v.get("fdm_equiv"),
                               "fim": v["fim"]} for t, v in by.items()}
        fig6[r.label] = {t: {"match": r.summary.get("match"), "lf0": v["acc_lf0_by_ratio"],
                             "lf0_canonical": v.get("acc_lf0_canonical_by_ratio"),
                             "lf0_equivalence": v.get("acc_lf0_equiv_by_ratio"),
                             "n_by_ratio": _n_by_ratio(r, t)} for t, v in by.items()}
    return {"table3": table3, "fig6": fig6}


def _n_by_ratio(run: Run, amp_type: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for x in run.records():
        if x.get("type") == amp_type and "ratio" in x:
            key = f"{float(x['ratio']):.1f}"
            counts[key] = counts.get(key, 0) + 1
    return counts


def radd_rows(run: Run) -> dict[str, dict[str, dict]]:
    """{row name: {style: block + n_by_pair}}: the run's label, or label/model for a run of
    several models (the responses solver's recorded models)."""
    by_style = run.summary["by_style"]
    models = sorted({m for blocks in by_style.values() for m in blocks})
    counts: dict[tuple[str, str, str], int] = {}
    for x in run.records():
        model = "prolog" if run.summary.get("solver") == "prolog" else x.get("model")
        k = (str(model), x.get("style", "direct"), x.get("pair"))
        counts[k] = counts.get(k, 0) + 1
    out: dict[str, dict[str, dict]] = {}
    for style, blocks in by_style.items():
        for m, block in blocks.items():
            name = run.label if len(models) == 1 else f"{run.label}/{m}"
            n_by_pair = {p: counts.get((m, style, p), 0) for p in block["by_pair"]}
            if len(models) == 1 and not any(n_by_pair.values()):  # records name the server's model id
                n_by_pair = {p: sum(v for (_, st, q), v in counts.items() if st == style and q == p)
                             for p in block["by_pair"]}
            out.setdefault(name, {})[style] = {**block, "n_by_pair": n_by_pair}
    return out


def radd(runs: list[Run]) -> dict:
    """Table 3 (P/R/F1 per class, mean over pairs) and Table 4 (confusion, accuracy by pair)
    per model and prompt style."""
    table3, table4, parsers = {}, {}, {}
    for r in runs:
        for name, styles in radd_rows(r).items():
            table3[name] = {st: {c: {f: b["per_class_macro"][c][f] for f in ("precision", "recall", "f1")}
                                 for c in ("de_dicto", "de_re")} for st, b in styles.items()}
            table4[name] = {st: {"n": b["n"], "accuracy": b["accuracy"], "confusion": b["confusion"],
                                 "by_pair": b["by_pair"], "n_by_pair": b["n_by_pair"]} for st, b in styles.items()}
        if "by_parser" in r.summary:
            parsers[r.label] = {"answer_parser": r.summary["answer_parser"],
                                "parsers_differ": r.summary["parsers_differ"],
                                "accuracy": {p: {st: {m: b["accuracy"] for m, b in blocks.items()}
                                                 for st, blocks in styles.items()}
                                             for p, styles in r.summary["by_parser"].items()}}
    return {"table3": table3, "table4": table4, "parsers": parsers}


def implicature(runs: list[Run]) -> dict:
    """Table 1 (mean ± std over templates at each k), by type, sizes, and the reference lines."""
    table1, by_type, sizes = {}, {}, {}
    for r in runs:
        table1[r.label] = {k: {"mean": v["mean"], "std": v["std"], "n": v["n"]} for k, v in r.summary["by_k"].items()}
        if "by_type" in r.summary:
            by_type[r.label] = {t: {k: {"mean": v["mean"], "std": v["std"], "n": v["n"]} for k, v in b["by_k"].items()}
                                for t, b in r.summary["by_type"].items()}
        if r.size is not None:
            sizes[r.label] = {"size": r.size, "size_text": r.size_text}
    return {"table1": table1, "by_type": by_type, "sizes": sizes, "reference": R.IMPLICATURE_REFERENCE}


TABLES = {"amp-zeroshot": amp_zeroshot, "amp-fewshot": amp_fewshot, "radd": radd, "implicature": implicature}


def compare(runs: list[Run]) -> dict:
    """compare.json: the runs, per suite the protocol differences and the tables."""
    out: dict[str, Any] = {"runs": [{"label": r.label, "dir": str(r.dir), "suite": r.suite, "model": r.model,
                                     "size": r.size, "size_text": r.size_text, "protocol": r.protocol()}
                                    for r in runs]}
    for suite in SUITES:
        mine = [r for r in runs if r.suite == suite]
        if mine:
            out[suite] = {"runs": [r.label for r in mine], "differences": differences(mine), **TABLES[suite](mine)}
    return out


# ---------------------------------------------------------------------------- markdown

def _p(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}"


def _f(x: float | None, digits: int = 2) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def _differences_md(diff: dict[str, dict[str, Any]]) -> list[str]:
    if not diff:
        return ["Protocol: the same in every run.", ""]
    lines = ["**Protocol differences** (the runs are laid side by side all the same):", ""]
    for name, values in diff.items():
        lines.append(f"- {name}: " + "; ".join(f"{label} = {'(not recorded)' if v is None else json.dumps(v)}"
                                               for label, v in values.items()))
    return lines + [""]


def _types(block: dict[str, dict]) -> list[str]:
    return R._ordered({t for per in block.values() for t in per})


def markdown(c: dict, figures: dict[str, list[str]]) -> str:
    """compare.md: the runs, then per suite its protocol differences, tables and figures."""
    lines = ["# ambit — runs compared", "", "| label | suite | model | size | run directory |", "|---|---|---|---|---|"]
    lines += [f"| {r['label']} | {r['suite']} | {r['model']} | {r['size_text'] or ''} | `{r['dir']}` |"
              for r in c["runs"]]
    lines.append("")
    for suite in SUITES:
        if suite not in c:
            continue
        lines += [f"## {suite}", ""] + _differences_md(c[suite]["differences"])
        lines += SECTIONS[suite](c[suite])
        lines += [f"![{name}]({name})" for name in figures.get(suite, [])] + [""]
    return "\n".join(lines) + "\n"


def _zeroshot_md(c: dict) -> list[str]:
    types = _types(c["fig2"])
    lines = ["### Fig. 2: zero-shot accuracy (%), canonical exact match (the paper's) beside equivalence match", "",
             "| model | type | n | LF0 canonical | LF0 equivalence | LF1 canonical | LF1 equivalence |",
             "|---|---|---|---|---|---|---|"]
    for label, per in c["fig2"].items():
        for t in types:
            if t in per:
                v = per[t]
                lines.append(f"| {label} | {t} | {v['n']} | {_p(v['lf0_canonical'])} | {_p(v['lf0_equivalence'])} | "
                             f"{_p(v['lf1_canonical'])} | {_p(v['lf1_equivalence'])} |")
    lines += ["", "### Table 2: ZM_5 (%), both LFs in the top 5", "",
              "| model | " + " | ".join(f"{t} canonical | {t} equivalence" for t in types) + " |",
              "|---" * (1 + 2 * len(types)) + "|"]
    for label, per in c["table2"].items():
        cells = [f"{_p(per[t]['zm5_canonical'])} | {_p(per[t]['zm5_equivalence'])}" if t in per else "n/a | n/a"
                 for t in types]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "### Fig. 3: P(LF0) per type, mean ± std (n)", "", "| model | " + " | ".join(types) + " |",
              "|---" * (1 + len(types)) + "|"]
    for label, per in c["fig3"].items():
        lines.append(f"| {label} | " + " | ".join(
            f"{_f(per[t]['mean'])} ± {_f(per[t]['std'])} ({per[t]['n']})" if t in per else "n/a" for t in types) + " |")
    return lines + [""]


def _fewshot_md(c: dict) -> list[str]:
    types = _types(c["table3"])
    lines = ["### Table 3: FDM (canonical exact match, equivalence match) and FIM; lower is better", "",
             "| model | type | n | FDM canonical | FDM equivalence | FIM |", "|---|---|---|---|---|---|"]
    for label, per in c["table3"].items():
        for t in types:
            if t in per:
                v = per[t]
                lines.append(f"| {label} | {t} | {v['n']} | {_f(v['fdm_canonical'])} | {_f(v['fdm_equivalence'])} | "
                             f"{_f(v['fim'])} |")
    ratios = sorted({r for per in c["fig6"].values() for v in per.values() for r in v["lf0"]}, key=float)
    lines += ["", "### Fig. 6: LF0 accuracy (%) against the ratio of LF0 demonstrations (each run's match)", "",
              "| model | type | match | " + " | ".join(f"r={r}" for r in ratios) + " |", "|---" * (3 + len(ratios)) + "|"]
    for label, per in c["fig6"].items():
        for t in types:
            if t in per:
                v = per[t]
                lines.append(f"| {label} | {t} | {v['match']} | " + " | ".join(_p(v["lf0"].get(r)) for r in ratios) + " |")
    return lines + [""]


def _radd_md(c: dict) -> list[str]:
    lines = ["### Table 3: precision / recall / F1 per class, mean over property pairs", "",
             "| model | style | de dicto P | de dicto R | de dicto F1 | de re P | de re R | de re F1 |",
             "|---|---|---|---|---|---|---|---|"]
    for name, styles in c["table3"].items():
        for st, v in styles.items():
            lines.append(f"| {name} | {st} | " + " | ".join(_f(v[cl][f]) for cl in ("de_dicto", "de_re")
                                                            for f in ("precision", "recall", "f1")) + " |")
    lines += ["", "### Table 4: confusion, % of all instances (rows gold), and accuracy", "",
              "| model | style | n | gold | de dicto | de re | both consistent | neither | accuracy |",
              "|---|---|---|---|---|---|---|---|---|"]
    for name, styles in c["table4"].items():
        for st, v in styles.items():
            for g in ("de_dicto", "de_re"):
                row = v["confusion"][g]
                lines.append(f"| {name} | {st} | {v['n']} | {g.replace('_', ' ')} | " + " | ".join(
                    f"{row[k]:.1f}" for k in ("de_dicto", "de_re", "both_consistent", "neither"))
                    + f" | {_p(v['accuracy'])} |")
    pairs = sorted({p for styles in c["table4"].values() for v in styles.values() for p in v["by_pair"]})
    lines += ["", "### Accuracy (%) per property pair", "", "| model | style | " + " | ".join(pairs) + " |",
              "|---" * (2 + len(pairs)) + "|"]
    for name, styles in c["table4"].items():
        for st, v in styles.items():
            lines.append(f"| {name} | {st} | " + " | ".join(_p(v["by_pair"].get(p)) for p in pairs) + " |")
    if c["parsers"]:
        lines += ["", "### Answer parsers (accuracy %, per style and model)", "",
                  "| run | figures above | parsers differ | paper | strict |", "|---|---|---|---|---|"]
        for label, v in c["parsers"].items():
            cells = ["; ".join(f"{st} {m} {_p(a)}" for st, ms in v["accuracy"][p].items() for m, a in ms.items())
                     for p in ("paper", "strict")]
            lines.append(f"| {label} | {v['answer_parser']} | {v['parsers_differ']} | {cells[0]} | {cells[1]} |")
    return lines + [""]


def _implicature_md(c: dict) -> list[str]:
    ks = sorted({k for per in c["table1"].values() for k in per}, key=int)
    ref = c["reference"]
    lines = ["### Table 1: accuracy (%), mean ± std over templates at each k (n pairs)", "",
             "| model | size | " + " | ".join(f"k={k}" for k in ks) + " |", "|---" * (2 + len(ks)) + "|"]
    for label, per in c["table1"].items():
        size = c["sizes"].get(label, {}).get("size_text") or ""
        lines.append(f"| {label} | {size} | " + " | ".join(
            f"{_p(per[k]['mean'])} ± {_p(per[k]['std'])} ({per[k]['n']})" if k in per else "n/a" for k in ks) + " |")
    lines += ["", f"Reference: humans {100 * ref['human']:.1f}% (best {100 * ref['human_best']:.0f}%), random "
              f"{100 * ref['random']:.0f}% ({ref['source']})."]
    if c["by_type"]:
        lines += ["", "### By implicature type: accuracy (%), mean ± std over templates (n pairs)", "",
                  "| model | type | " + " | ".join(f"k={k}" for k in ks) + " |", "|---" * (2 + len(ks)) + "|"]
        for label, per in c["by_type"].items():
            for t, by_k in per.items():
                lines.append(f"| {label} | {t} | " + " | ".join(
                    f"{_p(by_k[k]['mean'])} ± {_p(by_k[k]['std'])} ({by_k[k]['n']})" if k in by_k else "n/a"
                    for k in ks) + " |")
    return lines + [""]


SECTIONS = {"amp-zeroshot": _zeroshot_md, "amp-fewshot": _fewshot_md, "radd": _radd_md,
            "implicature": _implicature_md}


# ---------------------------------------------------------------------------- command line

def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR",
                   help="finished client eval output directories (a client eval all directory counts as its suites)")
    p.add_argument("--out", required=True, type=Path, help="where compare.md, compare.json and the figures go")
    p.add_argument("--label", action="append", default=[], metavar="RUN=NAME[:SIZE]",
                   help="name a run (RUN: its directory as given, or its last part) and optionally its size "
                        "(135M, 1.7B) for the accuracy-against-size plot; repeatable")


def run(args: argparse.Namespace) -> int:
    """The ``compare`` sub-command: 0 written, 2 bad input (named on stderr)."""
    from client.eval import compare_figures as F
    try:
        runs = load_runs(args.runs, args.label)
    except (ValueError, FileNotFoundError, KeyError) as err:
        print(f"error: compare: {err}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    c = compare(runs)
    figures = F.write_figures(c, runs, args.out)
    c["figures"] = figures
    R.write_json(args.out / "compare.json", c)
    R.write_text(args.out / "compare.md", markdown(c, figures))
    print(f"compare: {len(runs)} run(s) -> {args.out}", file=sys.stderr)
    return 0
