"""Run a suite's work items through a function, resumably and (optionally) concurrently.
Transient failures are retried; an item that still fails is logged to ``DIR/errors.jsonl`` and the
run goes on (a rerun retries exactly those), unless too many fail in a row."""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import json
import os
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import TextIO

from ambit import _files
from ambit.server import StartupFailed  # the server package's light __init__: no model, no grpc
from ambit.client.eval.store import ResultsStore
from ambit.client.eval.suite import RunContext, Suite

ERRORS = "errors.jsonl"
# gRPC status codes worth another try: nothing is wrong with the item. CANCELLED too: the runner
# never cancels a call, but a draining server resets calls it had not started
TRANSIENT = frozenset({"UNAVAILABLE", "RESOURCE_EXHAUSTED", "ABORTED", "CANCELLED"})


class ItemsFailed(RuntimeError):
    """Some items failed for good in this run; the others' results and reports are written."""

    def __init__(self, failures: Sequence[tuple[str, int]], summary: dict | None = None):
        self.failures = list(failures)  # (errors.jsonl path, count)
        self.summary = summary  # the suite's summary over the items that finished
        total = self.count = sum(n for _, n in self.failures)
        where = ", ".join(path for path, _ in self.failures)
        super().__init__(f"{total} item(s) failed (see {where}); rerun the same command to retry them")


class RunAborted(RuntimeError):
    """Too many items failed in a row: something systemic (a server gone, a bug)."""


class NothingMatched(ValueError):
    """A recorded file that matches none of the run's items: refused before any item runs."""


class PartialCoverage(RuntimeError):
    """A recorded file covers only part of the items, without --allow-partial (exit status 4)."""

    def __init__(self, line: str, summary: dict | None = None):
        super().__init__(line)
        self.summary = summary


ERROR_CHARS = 2000  # characters of an error kept in errors.jsonl and on stderr (an echoed input may be huge)


def _capped(text: str, limit: int = ERROR_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}… (cut: {len(text):,} characters)"


def _code(err: BaseException) -> str:
    return getattr(err, "code", None) or type(err).__name__


def error_entry(err: BaseException) -> dict:
    """An item's failure in the one error shape of every JSONL output (``logic.error_json``), with
    ``code`` (gRPC status or exception type) repeated at the top level for older readers."""
    from ambit.logic.error_json import error_object

    code = str(_code(err))
    message = _capped(str(getattr(err, "message", None) or err))
    violations = getattr(err, "violations", None) or []
    field = str(violations[0].get("field", "")) if violations else ""
    where = re.search(r"\(0-based position (\d+)\)", message)
    return {"code": code, **error_object(code, message, field, int(where.group(1)) if where else None)}


def call_with_retries(fn: Callable[[], dict], retries: int = 3, backoff_s: float = 1.0) -> dict:
    """``fn()``, retried with exponential backoff while it fails with a transient gRPC status."""
    attempt = 0
    while True:
        try:
            return fn()
        except Exception as err:  # noqa: BLE001 - classified below
            if str(_code(err)) not in TRANSIENT or attempt >= retries:
                raise
            time.sleep(backoff_s * 2 ** attempt)
            attempt += 1


class Progress:
    """Count finished items; ``update()`` after each one, ``close()`` at the end."""

    def __init__(self, total: int, desc: str, done: int = 0, stream: TextIO | None = None,
                 every_s: float = 10.0, tty: bool | None = None):
        self.stream = stream or sys.stderr
        self.total, self.desc, self.n, self.start_n = total, desc, done, done
        self.every_s = every_s
        self.t0 = self._last = time.monotonic()
        self._bar = None
        if self.stream.isatty() if tty is None else tty:
            from tqdm import tqdm
            self._bar = tqdm(total=total, initial=done, desc=desc, file=self.stream,
                             unit="item", dynamic_ncols=True)
        elif done:
            self._line(f"resuming: {done}/{total} already done")

    def _line(self, text: str) -> None:
        print(f"[{self.desc}] {text}", file=self.stream, flush=True)

    def update(self, n: int = 1) -> None:
        self.n += n
        if self._bar is not None:
            self._bar.update(n)
            return
        now = time.monotonic()
        if now - self._last >= self.every_s or self.n >= self.total:
            self._last = now
            self._line(self.status())

    def status(self) -> str:
        """The progress in one line: count, rate, elapsed time and ETA."""
        elapsed = time.monotonic() - self.t0
        rate = (self.n - self.start_n) / elapsed if elapsed > 0 else 0.0
        eta = f"{(self.total - self.n) / rate:.0f}s" if rate > 0 else "?"
        return f"{self.n}/{self.total} items, {rate:.2f} items/s, elapsed {elapsed:.0f}s, ETA {eta}"

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        else:
            self._line("done: " + self.status())


def run_items(store: ResultsStore, items: Sequence[dict], process: Callable[[dict], dict],
              desc: str, workers: int = 1, progress_every_s: float = 10.0, retries: int = 3,
              backoff_s: float = 1.0, max_consecutive_failures: int = 10) -> list[dict]:
    """``process`` each item not yet in ``store`` (a failure is logged and skipped); all records."""
    ids = [str(it["id"]) for it in items]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{desc}: duplicate item ids")
    todo = [it for it in items if str(it["id"]) not in store]
    progress = Progress(total=len(items), desc=desc, done=len(items) - len(todo),
                        every_s=progress_every_s)
    errors_path = store.dir / ERRORS
    lock = threading.Lock()
    state = {"failed": 0, "in_a_row": 0}

    def log_failure(item: dict, err: Exception) -> None:
        entry = {"id": str(item["id"]), "suite": desc, **error_entry(err),
                 "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                 "where": _capped("".join(traceback.format_exception_only(type(err), err)).strip())}
        message = entry["error"]["message"]
        with lock:
            state["failed"] += 1
            state["in_a_row"] += 1
            with _files.open_append(errors_path, mode=0o644) as fh:
                fh.write((json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8"))
                fh.flush()
                os.fsync(fh.fileno())
            print(f"[{desc}] item {entry['id']} failed: {entry['code']}: {message}", file=sys.stderr, flush=True)
            if state["in_a_row"] >= max_consecutive_failures:
                raise RunAborted(f"{desc}: {state['in_a_row']} items failed in a row, stopping "
                                   f"(see {errors_path}); last error: {entry['code']}: {err}") from err

    def one(item: dict) -> None:
        try:
            record = call_with_retries(lambda: process(item), retries, backoff_s)
        except StartupFailed:  # the embedded server (started by the first item) cannot serve: stop
            raise
        except Exception as err:  # noqa: BLE001 - logged, the run goes on
            log_failure(item, err)
            return
        record["id"] = str(item["id"])
        store.append(record)
        with lock:
            state["in_a_row"] = 0

    try:
        _each(todo, one, workers, progress)
    finally:
        progress.close()
    store.failed += state["failed"]
    wanted = set(ids)
    return [r for r in store.records() if r["id"] in wanted]


def _each(todo: Sequence[dict], one: Callable[[dict], None], workers: int, progress: Progress) -> None:
    """``one(item)`` for every item, on ``workers`` threads; the first exception stops the rest."""
    if workers <= 1:
        for item in todo:
            one(item)
            progress.update()
        return
    with cf.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(one, item) for item in todo]
        try:
            for fut in cf.as_completed(futures):
                fut.result()
                progress.update()
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def check_failures(store: ResultsStore, summary: dict | None = None) -> None:
    """Raise :class:`ItemsFailed` when items of this run failed (call after writing the reports)."""
    if store.failed:
        raise ItemsFailed([(str(store.dir / ERRORS), store.failed)], summary)


def run_suite(suite: Suite, ctx: RunContext) -> dict:
    """Run ``suite`` into ``ctx.out`` resumably; write its reports; return its summary."""
    ctx = dataclasses.replace(ctx, settings=suite.resolve(ctx))  # once per run: what `auto` means here
    items = suite.items(ctx)
    check_coverage(suite.coverage(items, ctx))
    key = suite.run_key(ctx)
    if ctx.settings.dtype and ctx.client is not None:  # the embedded server's --dtype
        key = {**key, "dtype": ctx.settings.dtype}
    desc = suite.desc(ctx.settings)
    with ResultsStore(ctx.out, key) as store:
        records = run_items(store, items, suite.processor(ctx), desc=desc, workers=ctx.workers)
    summary = suite.summarise(records, items, ctx)
    suite.write_reports(records, summary, ctx)
    partial = report_coverage(desc, summary, ctx.settings.allow_partial)
    if partial is not None and store.failed:  # the failures' exit status (3) wins; the coverage is still said
        print(f"warning: {partial}", file=sys.stderr, flush=True)
    check_failures(store, summary)
    if partial is not None:
        raise PartialCoverage(partial, summary)
    return summary


def check_coverage(cov: dict | None) -> None:
    """Refuse a recorded file that matches none of the run's items, before anything is written."""
    if cov is not None and cov["items"] and not cov["scored"]:
        from ambit.client.eval.report_common import nothing_matched

        raise NothingMatched(cov.get("nothing") or nothing_matched(cov))


def report_coverage(desc: str, summary: dict, allow_partial: bool = False) -> str | None:
    """A recorded run's coverage line on stderr, or returned to raise when below full coverage."""
    if not (cov := summary.get("coverage")):
        return None
    from ambit.client.eval.report_common import coverage_line

    line = coverage_line(desc, cov, cov.get("what", "recorded outputs"))
    partial = cov["missing"] > 0
    if partial and not allow_partial:
        return line + " — pass --allow-partial to accept a partial file"
    print(("warning: " if partial else "") + line, file=sys.stderr, flush=True)
    return None
