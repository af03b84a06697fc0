"""``ambit eval compare RUN_DIR... --out DIR [--label RUN=NAME[:SIZE]]...``: finished
runs laid side by side in the papers' tables and figures.

Runs that differ in protocol are still laid side by side, the differences listed. Runs are read by
``client.eval.compare.runs``, tables built by ``client.eval.compare.tables`` (both re-exported).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any

from ambit.client.eval import report as R
from ambit.client.eval.compare.runs import (  # noqa: F401
    PROTOCOL_FIELDS, SUITES, Run, differences, load_run_dir, load_runs, parse_label, parse_size,
)
from ambit.client.eval.compare.tables import (  # noqa: F401
    TABLES, amp_fewshot, amp_zeroshot, compare, implicature, radd, radd_rows,
)


_p, _f = R.pct, functools.partial(R.num, digits=2)  # a percentage, a figure to 2 digits ("n/a": none)


def _differences_md(diff: dict[str, dict[str, Any]]) -> list[str]:
    """The protocol fields that differ among a suite's runs."""
    if not diff:
        return ["Protocol: the same in every run.", ""]
    lines = ["**Protocol differences** (the runs are laid side by side all the same):", ""]
    for name, values in diff.items():
        lines.append(f"- {name}: " + "; ".join(f"{label} = {'(not recorded)' if v is None else json.dumps(v)}"
                                               for label, v in values.items()))
    return lines + [""]


def _types(block: dict[str, dict]) -> list[str]:
    return R._ordered({t for per in block.values() for t in per})


def _cells(block: dict[str, dict], keys: list[str] | None = None):
    """(label, key, value) per key a run of ``block`` has, in ``keys``' order (None: the run's)."""
    return ((label, k, per[k]) for label, per in block.items()
            for k in (per if keys is None else keys) if k in per)


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
        lines += _coverage_md(c[suite].get("coverage") or {})
        lines += SECTIONS[suite](c[suite])
        lines += [f"![{name}]({name})" for name in figures.get(suite, [])] + [""]
    return "\n".join(lines) + "\n"


def _coverage_md(cov: dict[str, dict]) -> list[str]:
    """The coverage of each run that scored a recorded file, before the suite's tables."""
    if not cov:
        return []
    lines = ["### Coverage of recorded runs (outputs read from a file)", "",
             "| run | items | scored | without a recorded output | lines matching no item | accuracy over scored | "
             "accuracy over all items |", "|---|---|---|---|---|---|---|"]
    for label, v in cov.items():
        stray = f"{v['unmatched_lines']}" + (f" ({', '.join(v['unmatched_ids'] or [])})" if v["unmatched_lines"] else "")
        lines.append(f"| {label} | {v['items']} | {v['scored']} | {v['missing']} | {stray} | {_p(v['accuracy_scored'])} | "
                     f"{_p(v['accuracy_all'])} |")
    if means := {v.get("accuracy_means") for v in cov.values()} - {None}:
        lines += ["", "Accuracy here: " + "; ".join(sorted(means)) + "."]
    return lines + [""]


def _zeroshot_md(c: dict) -> list[str]:
    types = _types(c["fig2"])
    lines = ["### Fig. 2: zero-shot accuracy (%), canonical exact match (the paper's) beside equivalence match", "",
             "| model | type | n | LF0 canonical | LF0 equivalence | LF1 canonical | LF1 equivalence |",
             "|---|---|---|---|---|---|---|"]
    for label, t, v in _cells(c["fig2"], types):
        lines.append(f"| {label} | {t} | {v['n']} | {_p(v['lf0_canonical'])} | "
                     f"{_p(v['lf0_equivalence'])} | {_p(v['lf1_canonical'])} | "
                     f"{_p(v['lf1_equivalence'])} |")
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
    for label, t, v in _cells(c["table3"], types):
        lines.append(f"| {label} | {t} | {v['n']} | {_f(v['fdm_canonical'])} | "
                     f"{_f(v['fdm_equivalence'])} | {_f(v['fim'])} |")
    ratios = sorted({r for per in c["fig6"].values() for v in per.values() for r in v["lf0"]}, key=float)
    lines += ["", "### Fig. 6: LF0 accuracy (%) against the ratio of LF0 demonstrations (each run's match)", "",
              "| model | type | match | " + " | ".join(f"r={r}" for r in ratios) + " |", "|---" * (3 + len(ratios)) + "|"]
    for label, t, v in _cells(c["fig6"], types):
        lines.append(f"| {label} | {t} | {v['match']} | "
                     + " | ".join(_p(v["lf0"].get(r)) for r in ratios) + " |")
    return lines + [""]


def _radd_md(c: dict) -> list[str]:
    lines = ["### Table 3: precision / recall / F1 per class, mean over property pairs", "",
             "| model | style | de dicto P | de dicto R | de dicto F1 | de re P | de re R | de re F1 |",
             "|---|---|---|---|---|---|---|---|"]
    for name, st, v in _cells(c["table3"]):
        lines.append(f"| {name} | {st} | " + " | ".join(_f(v[cl][f]) for cl in ("de_dicto", "de_re")
                                                        for f in ("precision", "recall", "f1")) + " |")
    lines += ["", "### Table 4: confusion, % of all instances (rows gold), and accuracy", "",
              "| model | style | n | gold | de dicto | de re | both consistent | neither | accuracy |",
              "|---|---|---|---|---|---|---|---|---|"]
    for name, st, v in _cells(c["table4"]):
        for g in ("de_dicto", "de_re"):
            row = v["confusion"][g]
            lines.append(f"| {name} | {st} | {v['n']} | {g.replace('_', ' ')} | " + " | ".join(
                f"{row[k]:.1f}" for k in ("de_dicto", "de_re", "both_consistent", "neither"))
                + f" | {_p(v['accuracy'])} |")
    pairs = sorted({p for styles in c["table4"].values() for v in styles.values() for p in v["by_pair"]})
    lines += ["", "### Accuracy (%) per property pair", "", "| model | style | " + " | ".join(pairs) + " |",
              "|---" * (2 + len(pairs)) + "|"]
    for name, st, v in _cells(c["table4"]):
        lines.append(f"| {name} | {st} | " + " | ".join(_p(v["by_pair"].get(p)) for p in pairs)
                     + " |")
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
        lines.append(f"| {label} | {size} | " + _by_k(per, ks))
    lines += ["", f"Reference: humans {100 * ref['human']:.1f}% (best {100 * ref['human_best']:.0f}%), random "
              f"{100 * ref['random']:.0f}% ({ref['source']})."]
    if c["by_type"]:
        lines += ["", "### By implicature type: accuracy (%), mean ± std over templates (n pairs)", "",
                  "| model | type | " + " | ".join(f"k={k}" for k in ks) + " |", "|---" * (2 + len(ks)) + "|"]
        lines += [f"| {label} | {t} | " + _by_k(per, ks) for label, t, per in _cells(c["by_type"])]
    return lines + [""]


def _by_k(per: dict, ks: list) -> str:
    """A row's cells: mean ± std (n) at each k."""
    return " | ".join(f"{_p(per[k]['mean'])} ± {_p(per[k]['std'])} ({per[k]['n']})" if k in per
                      else "n/a" for k in ks) + " |"


SECTIONS = {"amp-zeroshot": _zeroshot_md, "amp-fewshot": _fewshot_md, "radd": _radd_md,
            "implicature": _implicature_md}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``compare`` sub-command's arguments."""
    p.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR",
                   help="finished ambit eval output directories (an ambit eval all directory counts as its suites)")
    p.add_argument("--out", required=True, type=Path, help="where compare.md, compare.json and the figures go")
    p.add_argument("--label", action="append", default=[], metavar="RUN=NAME[:SIZE]",
                   help="name a run (RUN: its directory as given, or its last part) and optionally its size "
                        "(135M, 1.7B) for the accuracy-against-size plot; repeatable")


def run(args: argparse.Namespace) -> int:
    """The ``compare`` sub-command: 0 written, 2 bad input (named on stderr)."""
    from ambit.client.eval.compare import figures as F
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
    for r in runs:  # a recorded run's coverage, as its own run printed it
        if cov := r.summary.get("coverage"):
            print(("warning: " if cov["missing"] else "") + R.coverage_line(r.label, cov, cov.get("what", "recorded outputs")),
                  file=sys.stderr)
    print(f"compare: {len(runs)} run(s) -> {args.out}", file=sys.stderr)
    return 0
