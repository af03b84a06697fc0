"""``python -m client eval <suite> --out DIR [...]``: run a suite, resumably, and report.

Suites: amp-zeroshot, amp-fewshot, radd, implicature, all. Results go to
``DIR/results.jsonl`` (one record per item, durable on completion; a rerun with the same
arguments resumes), then ``summary.json``, ``summary.md`` and plots are written from all
records. ``all`` writes each suite into ``DIR/<suite>/`` and indexes them in ``DIR``.

Exit status: 0 done; 1 a server error stopped the run (or many items failed in a row);
2 the output directory belongs to a run with other arguments; 3 the run finished and its reports
are written, but some items failed (listed in ``DIR/errors.jsonl``; rerun to retry them).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from client.eval import report as R
from client.eval.runner import ItemsFailed, RunAborted
from client.eval.store import ResultsStore, RunMismatch

SUITES = ("amp-zeroshot", "amp-fewshot", "radd", "implicature", "all")
REPO = Path(__file__).resolve().parents[2]
DEFAULT_DATA = Path(os.environ.get("AMBIT_DATA", REPO.parent / "shared" / "data"))
ALL_DEFAULT_LIMIT = 10


def _csv(cast):
    def parse(text: str):
        try:
            return [cast(x) for x in text.split(",") if x.strip()]
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    return parse


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, type=Path, help="output directory")
    from client import credentials
    p.add_argument("--server", help="host:port[,host:port...] (default: embedded server)")
    credentials.add_arguments(p)
    p.add_argument("--model", help="model for the embedded server (default: the server's default)")
    p.add_argument("--limit", type=int, help="items per cell (type / ratio / template example)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, help="concurrent requests (default: one per server)")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="reference data root")
    p.add_argument("--timeout", type=float, default=600.0, help="per-call deadline, seconds")


def add_amp(p: argparse.ArgumentParser) -> None:
    from client.eval.amp import RATIOS, TYPES
    p.add_argument("--types", type=_csv(str), default=list(TYPES))
    p.add_argument("--ratios", type=_csv(float), default=list(RATIOS))
    p.add_argument("--format", dest="fmt", choices=("fol", "lisp"), default="fol")
    p.add_argument("--beam", type=int, help="beam size (default 5 zero-shot, 1 few-shot)")
    p.add_argument("--no-equiv", dest="equivalence", action="store_false",
                   help="skip Prolog equivalence checks (canonical match only)")


def add_implicature(p: argparse.ArgumentParser) -> None:
    from client.eval.implicature import KS, TEMPLATES
    p.add_argument("--k", dest="ks", type=_csv(int), default=list(KS))
    p.add_argument("--templates", type=_csv(int), default=list(TEMPLATES))


def build_parser(prog: str = "python -m client eval") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="suite", required=True, metavar="suite")
    for name in SUITES:
        # radd: the RADD module's own --data/--limit/--out replace the common ones
        p = sub.add_parser(name, help=f"run the {name} suite",
                           conflict_handler="resolve" if name == "radd" else "error")
        add_common(p)
        if name in ("amp-zeroshot", "amp-fewshot", "all"):
            add_amp(p)
        if name in ("implicature", "all"):
            add_implicature(p)
        if name in ("radd", "all"):
            from client.eval import radd_model
            radd_model.add_arguments(p, with_solver=name == "radd")
    return parser


# ---------------------------------------------------------------------------- suites

def _workers(args, client) -> int:
    return args.workers or max(1, len(client.servers))


def _model_id(client) -> str:
    return client.info().model_id


def run_amp(args, client, out: Path, setting: str) -> dict:
    from client.eval import amp
    from client.eval.runner import check_failures, run_items
    model = _model_id(client)
    beam = args.beam or (5 if setting == "zeroshot" else 1)
    key = {"suite": f"amp-{setting}", "model": model, "types": args.types, "seed": args.seed,
           "limit": args.limit, "format": args.fmt, "beam": beam, "equivalence": args.equivalence}
    if setting == "fewshot":
        key["ratios"] = [amp.ratio_key(r) for r in args.ratios]
        items = amp.fewshot_items(args.types, args.ratios, args.seed, args.limit, args.fmt)
        fn = amp.fewshot_process
    else:
        items = amp.zeroshot_items(args.types, args.seed, args.limit, args.fmt)
        fn = amp.zeroshot_process
    with ResultsStore(out, key) as store:
        records = run_items(store, items, lambda it: fn(client, it, fmt=args.fmt, beam=beam,
                                                        equivalence=args.equivalence),
                            desc=f"amp-{setting}", workers=_workers(args, client))
    if setting == "fewshot":
        summary = amp.fewshot_summary(records, model)
        amp.write_fewshot_reports(out, records, summary)
    else:
        summary = amp.zeroshot_summary(records, model)
        amp.write_zeroshot_reports(out, records, summary)
    check_failures(store, summary)
    return summary


def run_implicature(args, client, out: Path) -> dict:
    from client.eval import implicature as I
    from client.eval.runner import check_failures, run_items
    model = _model_id(client)
    key = {"suite": "implicature", "model": model, "ks": args.ks, "templates": args.templates,
           "seed": args.seed, "limit": args.limit}
    items = I.items(args.data / "implicature", args.ks, args.templates, args.seed, args.limit)
    with ResultsStore(out, key) as store:
        records = run_items(store, items, lambda it: I.process(client, it), desc="implicature",
                            workers=_workers(args, client))
    summary = I.summary(records, model)
    I.write_reports(out, records, summary)
    check_failures(store, summary)
    return summary


def run_radd(args, client, out: Path) -> dict:
    from client.eval import radd_model
    return radd_model.run_suite(args, client, out)


def run_all(args, client) -> dict:
    if args.limit is None:
        args.limit = ALL_DEFAULT_LIMIT
    index = {"suite": "all", "model": _model_id(client), "limit": args.limit, "suites": {}}
    md = [f"# ambit evaluation — {index['model']} (limit {args.limit})\n"]
    runs = [("amp-zeroshot", lambda o: run_amp(args, client, o, "zeroshot")),
            ("amp-fewshot", lambda o: run_amp(args, client, o, "fewshot")),
            ("implicature", lambda o: run_implicature(args, client, o))]
    from client.eval import radd_model
    runs += [(name, (lambda o, s=solver: radd_model.run_suite(args, client, o, solver=s)))
             for name, solver in radd_model.ALL_SOLVERS]
    failures: list[tuple[str, int]] = []
    for name, fn in runs:
        t0 = time.monotonic()
        out = args.out / name
        if name == "radd" and radd_model._external() is None:
            index["suites"][name] = {"skipped": "client.eval.radd (prolog solver) not available"}
            md.append(f"- {name}: skipped (client.eval.radd not available)")
            continue
        try:
            summary, failed = fn(out), 0
        except ItemsFailed as err:  # reports of the finished items are written; go on
            failures += err.failures
            summary, failed = err.summary or {}, err.count
        index["suites"][name] = {"dir": name, "summary": f"{name}/summary.json",
                                 "seconds": round(time.monotonic() - t0, 1),
                                 "headline": headline(summary)}
        if failed:
            index["suites"][name]["failed_items"] = failed
        md.append(f"- [{name}]({name}/summary.md): {index['suites'][name]['headline']}"
                  + (f" — {failed} item(s) failed, see {name}/errors.jsonl" if failed else ""))
    R.write_json(args.out / "summary.json", index)
    R.write_text(args.out / "summary.md", "\n".join(md) + "\n")
    if failures:
        raise ItemsFailed(failures)
    return index


def headline(summary: dict) -> str:
    """One line per suite for the index."""
    s = summary.get("suite", "")
    if s == "amp-zeroshot":
        return "; ".join(f"{t}: LF0 {R.pct(v['acc_lf0'])}% LF1 {R.pct(v['acc_lf1'])}% ZM5 "
                         f"{R.pct(v['zm']['5'])}%" for t, v in summary["by_type"].items())
    if s == "amp-fewshot":
        return "; ".join(f"{t}: FDM {R.num(v['fdm'], 2)} FIM {R.num(v['fim'], 2)}"
                         for t, v in summary["by_type"].items())
    if s == "implicature":
        return "; ".join(f"k={k}: {R.pct(v['mean'])}% ± {R.pct(v['std'])}"
                         for k, v in summary["by_k"].items())
    if "accuracy" in summary:
        return f"accuracy {R.pct(summary['accuracy'])}% (n={summary.get('n')})"
    return ""


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from client.api import AmbitError
    from client.connect import connect
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    try:
        if args.suite == "radd" and args.solver != "model":
            from client.eval import radd_model
            return radd_model.run_external(args)  # in-process solvers: no server needed
        from client.credentials import from_args
        with connect(args.server, args.model, timeout=args.timeout, security=from_args(args)) as client:
            if args.suite == "all":
                run_all(args, client)
            elif args.suite == "implicature":
                run_implicature(args, client, args.out)
            elif args.suite == "radd":
                run_radd(args, client, args.out)
            else:
                run_amp(args, client, args.out, args.suite.removeprefix("amp-"))
    except RunMismatch as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except ItemsFailed as err:
        print(f"{args.suite}: wrote {args.out} in {time.monotonic() - t0:.0f}s, but {err}", file=sys.stderr)
        return 3
    except RunAborted as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except AmbitError as err:
        print(f"error: {err.code}: {err.message}", file=sys.stderr)
        return 1
    print(f"{args.suite}: wrote {args.out} in {time.monotonic() - t0:.0f}s", file=sys.stderr)
    return 0
