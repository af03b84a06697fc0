"""``ambit eval <suite> --out DIR [...]``: run a suite, resumably, and report.

Results go to ``DIR/results.jsonl`` (a rerun resumes), then summaries and plots. Exit status:
0 done; 1 a server error stopped the run; 2 refused (another run's folder, a busy folder, a
recorded file matching no item); 3 some items failed (``DIR/errors.jsonl``); 4 a recorded file
covers only part of the items (``--allow-partial``: 0).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from ambit.client import credentials
from ambit.client.cli_options import add_log_level
from ambit.client.eval import remote as RE
from ambit.client.eval import report as R
from ambit.client.eval.glossary import glossary
from ambit.client.eval.runner import ItemsFailed, PartialCoverage, RunAborted, run_suite
from ambit.client.eval.store import RUN_KEY, FolderBusy, FolderLock, RunMismatch
from ambit import _extras, _files, _paths
from ambit._extras import MissingExtra
from ambit.client.eval.suite import DEFAULT_DATA, Common, MissingData, Option, RunContext, Suite, option
from ambit.client.eval.suites import ALL, SUITES

ALL_DEFAULT_LIMIT = 10
DTYPES = ("float32", "float16", "bfloat16")

COMMON = (
    option("--out", required=True, type=Path, help="output directory"),
    option("--server", help="host:port[,host:port...] (default: embedded server)"),
    option("--model", help="model for the embedded server (default: the server's default)"),
    option("--limit", type=int, help="items per cell (type / ratio / template example)"),
    option("--seed", type=int, default=0),
    option("--workers", type=int, help="concurrent requests (default: one per server)"),
    option("--data", type=Path, default=DEFAULT_DATA, help="reference data root"),
    option("--timeout", type=float, default=600.0, help="per-call deadline, seconds"),
    *RE.OPTIONS,
    option("--dtype", choices=DTYPES,
           help="weights' dtype of the embedded server (default: the engine's choice; the AmP paper ran fp16); "
                "recorded in run.json"),
    option("--allow-partial", action="store_true",
           help="accept a recorded file (--predictions, --responses, --translations, radd --solver responses) "
                "that covers only part of the run's items: exit 0, not 4 (its coverage is reported either way)"),
)


def merged_options(own: Iterable[Option], shared: Iterable[Option] = ()) -> list[Option]:
    """The common options, then each suite's own (replacing them); in ``all`` the first wins."""
    opts = {o.flags: o for o in COMMON}
    for o in own:
        opts.pop(o.flags, None)
        opts[o.flags] = o
    for o in shared:
        opts.setdefault(o.flags, o)
    return list(opts.values())


def build_parser(prog: str = "ambit eval") -> argparse.ArgumentParser:
    """The parser of ``ambit eval``: one subcommand per suite, ``all`` and ``compare``."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="suite", required=True, metavar="suite")
    for name, own, shared in [*((n, s.options(), ()) for n, s in SUITES.items()),
                              ("all", (), [o for _, s in ALL for o in s.options()])]:
        p = sub.add_parser(name, help=f"run the {name} suite")
        for o in merged_options(own, shared):
            o.add_to(p)
        credentials.add_arguments(p)  # TLS and token, as every client command
        add_log_level(p)
    from ambit.client.eval.compare import suite as compare
    compare.add_arguments(sub.add_parser("compare", help="lay finished runs side by side in the papers' tables",
                                         description=compare.__doc__.split("\n\n")[0]))
    return parser


def common(args: argparse.Namespace) -> Common:
    """The options every suite shares, resolved once (``--data``'s default read now)."""
    given = args.data is not DEFAULT_DATA
    data = tuple(map(Path, args.data if isinstance(args.data, (list, tuple)) else [args.data]))
    limit = ALL_DEFAULT_LIMIT if args.suite not in SUITES and args.limit is None else args.limit
    return Common(command=args.suite, out=args.out, data=data if given else (_paths.default_data_root(),),
                  data_given=given, limit=limit, seed=args.seed, workers=args.workers, timeout=args.timeout,
                  model=args.model, dtype=args.dtype, allow_partial=args.allow_partial)


def check_data(named: Iterable[tuple[str, Suite, Any]]) -> dict[str, MissingData]:
    """The requested suites whose reference data is absent, by name; one line on stderr each."""
    skipped = {name: m for name, suite, s in named if (m := suite.missing_data(s)) is not None}
    for m in skipped.values():
        print(m.line(), file=sys.stderr, flush=True)
    return skipped


def check_given_data(named: Iterable[tuple[str, Suite, Any]], c: Common) -> None:
    """ValueError (one line) when a given ``--data`` does not exist or lacks what a suite needs."""
    if not c.data_given:
        return
    for path in c.data:
        if not path.exists():
            raise ValueError(f"--data {path} does not exist")
    shown = " ".join(map(str, c.data))
    for name, suite, s in named:
        if (missing := suite.missing_data(s)) is not None:
            raise ValueError(f"--data {shown} lacks what {name} needs: {missing.reason()}")
        if fallback := suite.fallback(s):
            raise ValueError(f"--data {shown} lacks what {name} needs: {fallback} "
                             "(without --data, generated items stand in)")


def run_all(c: Common, named: list[tuple[str, Suite, Any]], client, skipped: dict[str, MissingData]) -> dict:
    """Every suite of ``ALL`` into ``DIR/<name>/``, then the index ``DIR/summary.{json,md}``."""
    model = model_id(client)
    index = {"suite": "all", "model": model, "limit": c.limit, "suites": {},
             "skipped": {name: m.to_dict() for name, m in skipped.items()}}
    md = [f"# ambit evaluation — {model} (limit {c.limit})\n", glossary("all")]
    failures: list[tuple[str, int]] = []
    partial: list[str] = []
    for name, suite, s in named:
        if name in skipped:
            md.append(f"- {name}: **skipped** — {skipped[name].reason()}")
            continue
        t0 = time.monotonic()
        try:
            summary, failed = RE.run_suite(suite, RunContext(s, c.out / name, client, model)), 0
        except RE.Refused as err:  # the endpoint cannot serve this suite: say so, run the others
            print(f"skipped {name}: {err}", file=sys.stderr, flush=True)
            index["skipped"][name] = {"reason": "endpoint capability", "message": str(err)}
            md.append(f"- {name}: **skipped** — {err}")
            continue
        except ItemsFailed as err:  # reports of the finished items are written; go on
            failures += err.failures
            summary, failed = err.summary or {}, err.count
        except PartialCoverage as err:  # a recorded file that covers part of the suite: reports written; go on
            partial.append(str(err))
            summary, failed = err.summary or {}, 0
        entry = index["suites"][name] = {"dir": name, "summary": f"{name}/summary.json",
                                         "seconds": round(time.monotonic() - t0, 1),
                                         "headline": suite.headline(summary) if summary else ""}
        if failed:
            entry["failed_items"] = failed
        if summary.get("coverage"):
            entry["coverage"] = {k: summary["coverage"][k] for k in ("items", "scored", "missing", "unmatched_lines")}
        md.append(f"- [{name}]({name}/summary.md): {entry['headline']}"
                  + (f" — {failed} item(s) failed, see {name}/errors.jsonl" if failed else ""))
    R.write_json(c.out / "summary.json", index)
    R.write_text(c.out / "summary.md", "\n".join(md) + "\n")
    if failures:
        raise ItemsFailed(failures)
    if partial:
        raise PartialCoverage("; ".join(partial), index)
    return index


def _run(args: argparse.Namespace) -> bool:
    """The chosen suite (or ``all``); False when the one chosen was skipped for missing data."""
    from ambit.client.connect import connect, require_model
    c = common(args)
    suite = SUITES.get(args.suite)
    named = [(name, each, each.configure(args, c)) for name, each in (ALL if suite is None else [(args.suite, suite)])]
    check_given_data(named, c)
    skipped = check_data(named)
    if suite is not None and skipped:
        return False
    if suite is not None and not suite.needs_server(named[0][2]):
        run_suite(suite, RunContext(named[0][2], c.out))  # in-process solvers: no server
        return True
    security = credentials.from_args(args)  # ValueError names the unreadable file
    require_model(args.server, args.model, "--server HOST:PORT (a running ambit serve)")
    with connect(args.server, args.model, timeout=args.timeout, security=security,
                 remote=RE.options(args), dtype=args.dtype, lazy=True) as client:
        if suite is None:
            run_all(c, named, client, skipped)
        else:
            RE.run_suite(suite, RunContext(named[0][2], c.out, client, model_id(client)))
    return True


def model_id(client) -> str:
    """The served model's id; an embedded server not started yet answers from its config."""
    from ambit.client.connect import known_facts
    facts = known_facts(client)
    return facts.model_id if facts is not None else client.info().model_id


def main(argv: list[str] | None = None) -> int:
    """``ambit eval``: the exit status."""
    args = build_parser().parse_args(argv)
    if args.suite == "compare":
        from ambit.client.eval.compare import suite as compare
        return compare.run(args)
    created = not os.path.lexists(args.out)
    t0 = time.monotonic()
    try:
        with FolderLock(args.out):  # one writer per --out (no link followed), refused before any model loads
            ran = _run(args)
    except BaseException as err:  # Ctrl-C: the folder as the run found it; ambit's main prints the one line
        outcome = None if isinstance(err, KeyboardInterrupt) else _outcome(err, args, time.monotonic() - t0)
        if not isinstance(err, FolderBusy):  # a folder this run made and wrote nothing into is not left behind
            _tidy(args.out, created)
        if outcome is None:
            raise
        print(outcome[1], file=sys.stderr)
        return outcome[0]
    if not ran:
        _tidy(args.out, created)
    print(f"{args.suite}: wrote {args.out} in {time.monotonic() - t0:.0f}s" if ran
          else f"{args.suite}: skipped for missing data, nothing written", file=sys.stderr)
    return 0


def _outcome(err: BaseException, args: argparse.Namespace, seconds: float) -> tuple[int, str] | None:
    """The exit status and what stderr says of a run that ended with ``err`` (None: raise it)."""
    from ambit.client.api import AmbitError
    from ambit.server import StartupFailed

    wrote = f"{args.suite}: wrote {args.out} in {seconds:.0f}s, but"
    if isinstance(err, (RunMismatch, FolderBusy, ValueError)):
        return 2, f"error: {err}"
    if isinstance(err, MissingExtra):  # the embedded server's model needs an extra: one line
        return 2, str(err)
    if isinstance(err, ItemsFailed):
        return 3, f"{wrote} {err}"
    if isinstance(err, PartialCoverage):  # the reports are written and show it
        return 4, f"warning: {err}\n{wrote} its recorded file covers only part of the run (exit status 4)"
    if isinstance(err, (RunAborted, FileNotFoundError, StartupFailed)):  # StartupFailed: an endpoint refusing
        return 1, f"error: {err}"
    if isinstance(err, _files.FileError):  # a link, a FIFO, a device or a file where --out's files are due
        return 2, f"error: {err}"
    if isinstance(err, AmbitError):
        return 1, f"error: {err.code}: {err.message}"
    return None


def _tidy(out: Path, created: bool) -> None:
    """Remove the `--out` folder this run made if it wrote nothing there (lock, run key aside)."""
    if not created or out.is_symlink() or not out.is_dir():
        return
    files = [p for p in out.rglob("*") if p.is_file() and p.name not in ("run.lock", RUN_KEY) and p.stat().st_size]
    if files:
        return
    for p in sorted(out.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    out.rmdir()
