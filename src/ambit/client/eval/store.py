"""Append-only, resumable results file: ``results.jsonl`` plus ``run.json`` (the run key).

Each record is fsynced before the next item is reported done; reopening with the same key resumes,
a different key is refused. One writer per folder (:class:`FolderLock`). Lines that are not
records are moved to ``results.rejected.jsonl``; all file access is ``ambit._files`` (no links).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ambit import _files

RESULTS = "results.jsonl"
REJECTED = "results.rejected.jsonl"
RUN_KEY = "run.json"
LOCK = "run.lock"
REMOTE = "remote"  # run.json's block about a model served elsewhere (client.eval.remote): not part of the key
_SHOWN_LINES = 10  # line numbers listed in the one-line warning about rejected lines
MAX_LINE = 16 * 2**20  # bytes in one line of results.jsonl: a longer line is set aside, not read
RUN_KEY_LIMIT = 2**20  # bytes of run.json
FILE_MODE = 0o644  # results, run.json and the lock, unless results.jsonl is stricter


class RunMismatch(RuntimeError):
    """The output directory holds results of a run with different arguments."""


class FolderBusy(RuntimeError):
    """Another process holds the output directory's lock: it is writing results there now."""

    def __init__(self, directory: Path, pid: int | None) -> None:
        who = f"pid {pid}" if pid else "a process whose pid it has not written yet"
        super().__init__(f"{directory} is in use by another run ({who}); wait for it to end, "
                         "or use another --out directory")
        self.directory, self.pid = directory, pid


class FolderLock:
    """An exclusive, non-waiting, re-entrant ``fcntl.flock`` on ``DIR/run.lock`` (with the pid).
    The kernel drops it as its holder exits; the file stays (removing it would race a newcomer)."""

    _held: dict[str, list] = {}  # realpath of the folder -> [fd, holders in this process]
    _guard = threading.Lock()

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        self.path = self.dir / LOCK
        self._key: str | None = None

    def acquire(self) -> "FolderLock":
        _files.ensure_dir(self.dir, 0o777)  # the umask decides, as for mkdir; no link on the way
        key = os.path.abspath(self.dir)  # no link is followed, so this names the folder itself
        with self._guard:
            held = self._held.get(key)
            if held is not None:
                held[1] += 1
                self._key = key
                return self
            fd = _files.open_lock(self.path, mode=FILE_MODE)  # a link or a FIFO is refused, never truncated
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as err:
                if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    os.close(fd)
                    raise
                pid = _holder(fd)
                os.close(fd)
                raise FolderBusy(self.dir, pid) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            self._held[key] = [fd, 1]
            self._key = key
        return self

    def release(self) -> None:
        if self._key is None:
            return
        with self._guard:
            held = self._held[self._key]
            held[1] -= 1
            if held[1] == 0:
                del self._held[self._key]
                os.close(held[0])  # closing the last descriptor releases the flock
        self._key = None

    def __enter__(self) -> "FolderLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def _holder(fd: int, wait_s: float = 1.0) -> int | None:
    """The pid the lock's holder wrote (it writes it just after taking the lock: wait a moment)."""
    end = time.monotonic() + wait_s
    while True:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text.isdigit():
            return int(text)
        if time.monotonic() >= end:
            return None
        time.sleep(0.01)


class ResultsStore:
    """Records keyed by ``record["id"]`` in ``<dir>/results.jsonl``; thread-safe appends."""

    def __init__(self, directory: str | Path, key: Mapping[str, Any]):
        self.dir = Path(directory)
        self.path = self.dir / RESULTS
        self.key = json.loads(json.dumps(dict(key), sort_keys=True))
        self._records: dict[str, dict] = {}
        self.failed = 0  # items that failed for good in this session (see client.eval.runner)
        self._folder = FolderLock(self.dir).acquire()
        try:
            scan = _scan(self.path)
            self._check_key(has_results=bool(scan.records))
            scan.repair(self.path)
            self._records = scan.records
            self._lock = threading.Lock()
            self._fh = _files.open_append(self.path, mode=_files.file_mode(self.path) or FILE_MODE)
        except BaseException:
            self._folder.release()
            raise

    def _check_key(self, has_results: bool) -> None:
        key_path = self.dir / RUN_KEY
        old = _read_key(key_path, has_results)
        if old is not None:
            old.pop(REMOTE, None)
            if old == self.key:
                return
            diff = sorted(k for k in set(old) | set(self.key) if old.get(k) != self.key.get(k))
            details = ", ".join(f"{k}: {_short(old.get(k))} -> {_short(self.key.get(k))}" for k in diff)
            if has_results:
                raise RunMismatch(
                    f"{self.dir} holds results of a run with different arguments ({details}); "
                    f"use another --out directory, or delete {self.dir} to start over")
            print(f"note: {key_path} was left by a run that recorded no result; replaced ({details})",
                  file=sys.stderr, flush=True)
        _files.write_atomic(key_path, json.dumps(self.key, indent=2, sort_keys=True) + "\n", mode=FILE_MODE)

    def __contains__(self, item_id: str) -> bool:
        return str(item_id) in self._records

    def __len__(self) -> int:
        return len(self._records)

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one finished record durably; a repeated id is ignored."""
        rid = str(record["id"])
        line = (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        if len(line) > MAX_LINE:
            raise ValueError(f"{self.path}: the record of item {rid} is {len(line):,} bytes, over the line cap "
                             f"of {MAX_LINE:,}; it is not written")
        with self._lock:
            if rid in self._records:
                return
            self._fh.write(line)
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._records[rid] = dict(record)

    def records(self) -> list[dict]:
        """All finished records, sorted by id (independent of completion order)."""
        with self._lock:
            return [self._records[k] for k in sorted(self._records)]

    def __iter__(self) -> Iterator[dict]:
        return iter(self.records())

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()
            self._folder.release()

    def __enter__(self) -> "ResultsStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"


def _read_key(key_path: Path, has_results: bool) -> dict | None:
    """The run key in run.json (None: none); a bad one is an error when results depend on it."""
    try:
        old = _files.read_json(key_path, RUN_KEY_LIMIT)
    except FileNotFoundError:
        return None
    except ValueError as err:
        old, why = None, str(err)
    else:
        why = "" if isinstance(old, dict) else f"{key_path}: a JSON {type(old).__name__}, not an object"
    if why:
        if has_results:
            raise RunMismatch(f"{why}; its results cannot be matched to this run: use another --out directory, "
                              f"or delete {key_path.parent} to start over")
        print(f"note: {why}; replaced", file=sys.stderr, flush=True)
        return None
    return old


def _record(line: bytes, path: str | Path = RESULTS, number: int = 1) -> tuple[dict | None, str]:
    """The record on one line of results.jsonl, or None and why it is not one."""
    try:
        rec = _files.parse_json(line, where=str(path), line=number)
    except _files.LineError as err:
        return None, err.why
    if not isinstance(rec, dict) or "id" not in rec:
        return None, "not a record (a JSON object with an \"id\")"
    return rec, ""


class _Scan:
    """What ``results.jsonl`` holds: the records (a later line wins) and the rejected lines."""

    def __init__(self) -> None:
        self.records: dict[str, dict] = {}
        self.good: list[bytes] = []
        self.rejected: list[tuple[int, bytes, str]] = []
        self.torn = False
        self.needs_newline = False

    def repair(self, path: Path) -> None:
        """Move rejected lines to results.rejected.jsonl (durably), then rewrite results.jsonl."""
        mode = _files.file_mode(path) or FILE_MODE  # the lines set aside are as private as their file
        if not self.rejected:
            if self.needs_newline:
                with _files.open_append(path, mode=mode) as fh:
                    fh.write(b"\n")
            return
        rejected = path.with_name(REJECTED)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        with _files.open_append(rejected, mode=mode) as fh:
            for lineno, raw, why in self.rejected:
                # surrogateescape + ASCII JSON: the original bytes come back exactly, UTF-8 or not
                fh.write((json.dumps({"file": RESULTS, "line": lineno, "reason": why, "time": stamp,
                                      "text": raw.decode("utf-8", "surrogateescape")}) + "\n").encode("ascii"))
            fh.flush()
            os.fsync(fh.fileno())
        _files.write_atomic(path, b"".join(self.good), mode=mode)
        middle = self.rejected[:-1] if self.torn else self.rejected
        if middle:
            shown = ", ".join(str(n) for n, _, _ in middle[:_SHOWN_LINES])
            more = f" and {len(middle) - _SHOWN_LINES} more" if len(middle) > _SHOWN_LINES else ""
            print(f"warning: {path}: {len(middle)} line(s) that are not records (line {shown}{more}; "
                  f"first: {middle[0][2]}) moved to {rejected}; {len(self.records)} good record(s) kept",
                  file=sys.stderr, flush=True)
        if self.torn:
            print(f"note: {path}: its last line (line {self.rejected[-1][0]}) was cut short by an interrupted "
                  f"write; set aside in {rejected}, that item runs again", file=sys.stderr, flush=True)


def _lines(path: Path) -> Iterator[tuple[_files.JsonlLine, dict | None, str]]:
    """(line, its record or None, why not) per non-blank line; none when the file is missing."""
    try:
        for line in _files.iter_jsonl_lines(path, MAX_LINE):
            if line.problem is None and not line.raw.strip():
                continue
            rec, why = (None, line.problem) if line.problem else _record(line.raw, path, line.number)
            yield line, rec, why
    except FileNotFoundError:
        return


def _scan(path: Path) -> _Scan:
    scan = _Scan()
    last = None
    for line, rec, why in _lines(path):
        last = line
        raw = line.raw + b"\n"
        if rec is None and not line.ended:  # no newline: the last write was cut short
            scan.rejected.append((line.number, line.raw, f"cut short: {why}"))
            scan.torn = True
            continue
        if rec is None:
            scan.rejected.append((line.number, raw, why))
            continue
        scan.records[str(rec["id"])] = rec
        scan.good.append(raw)
    # a whole record without its newline (edited by hand): the next append must start a new line
    scan.needs_newline = last is not None and not last.ended and not scan.torn
    return scan


def read_records(directory: str | Path) -> list[dict]:
    """Records of a finished or partial run, sorted by id, without opening it for writing."""
    out: dict[str, dict] = {}
    for _line, rec, _why in _lines(Path(directory) / RESULTS):
        if rec is not None:
            out[str(rec["id"])] = rec
    return [out[k] for k in sorted(out)]
