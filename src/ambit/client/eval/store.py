"""Append-only, resumable results file: ``results.jsonl`` plus ``run.json`` (the run key).

Each finished item is one JSON line, written, flushed and fsynced before the next one is
reported done, so a crash loses at most the item in flight. Reopening the same directory
with the same run key resumes (finished ids are skipped); a different key is refused with
a clear error instead of silently mixing two runs in one file.

One writer per folder: a store holds an exclusive ``flock`` on ``DIR/run.lock`` (see
:class:`FolderLock`) from before it reads ``run.json`` until it is closed, so a second process is
refused at once, naming the pid that writes there. A line of ``results.jsonl`` that is not a
record (damaged by hand, by a disk, by a tool) is moved to ``results.rejected.jsonl`` with its line
number, and every good line around it is kept; a last line cut short by a crash is set aside the
same way. A folder whose run recorded no result yet (it failed on a bad option, or its model did
not load) does not bind the next run to its arguments: its ``run.json`` is replaced.
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

RESULTS = "results.jsonl"
REJECTED = "results.rejected.jsonl"
RUN_KEY = "run.json"
LOCK = "run.lock"
REMOTE = "remote"  # run.json's block about a model served elsewhere (client.eval.remote): not part of the key
_SHOWN_LINES = 10  # line numbers listed in the one-line warning about rejected lines


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
    """An exclusive ``fcntl.flock`` on ``DIR/run.lock``, which holds the pid of its holder.

    Taken without waiting: a folder another process holds raises :class:`FolderBusy`. Within one
    process the lock is re-entrant (``ambit eval`` takes it before the model loads, and the store
    takes it again). The kernel drops it when its holder exits, however that happens, so a killed
    run never leaves a stale lock; the file itself stays (removing it would race with a newcomer).
    """

    _held: dict[str, list] = {}  # realpath of the folder -> [fd, holders in this process]
    _guard = threading.Lock()

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        self.path = self.dir / LOCK
        self._key: str | None = None

    def acquire(self) -> "FolderLock":
        self.dir.mkdir(parents=True, exist_ok=True)
        key = os.path.realpath(self.dir)
        with self._guard:
            held = self._held.get(key)
            if held is not None:
                held[1] += 1
                self._key = key
                return self
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
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
            self._fh = open(self.path, "a", encoding="utf-8")
        except BaseException:
            self._folder.release()
            raise

    def _check_key(self, has_results: bool) -> None:
        key_path = self.dir / RUN_KEY
        if key_path.exists():
            old = json.loads(key_path.read_text(encoding="utf-8"))
            old.pop(REMOTE, None)
            if old == self.key:
                return
            diff = sorted(k for k in set(old) | set(self.key) if old.get(k) != self.key.get(k))
            details = ", ".join(f"{k}: {old.get(k)!r} -> {self.key.get(k)!r}" for k in diff)
            if has_results:
                raise RunMismatch(
                    f"{self.dir} holds results of a run with different arguments ({details}); "
                    f"use another --out directory, or delete {self.dir} to start over")
            print(f"note: {key_path} was left by a run that recorded no result; replaced ({details})",
                  file=sys.stderr, flush=True)
        tmp = key_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.key, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, key_path)

    def __contains__(self, item_id: str) -> bool:
        return str(item_id) in self._records

    def __len__(self) -> int:
        return len(self._records)

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one finished record durably; a repeated id is ignored."""
        rid = str(record["id"])
        line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
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


def _record(line: bytes) -> tuple[dict | None, str]:
    """The record on one line of results.jsonl, or None and why it is not one."""
    try:
        rec = json.loads(line)
    except UnicodeDecodeError as err:
        return None, f"not UTF-8 (byte {err.start + 1}: {err.reason})"
    except json.JSONDecodeError as err:
        return None, f"not JSON ({err.msg} at character {err.pos + 1})"
    if not isinstance(rec, dict) or "id" not in rec:
        return None, "not a record (a JSON object with an \"id\")"
    return rec, ""


class _Scan:
    """What ``results.jsonl`` holds: the records (by id; a later line wins), the lines that are
    not records (line number, bytes, why), and whether the file must be rewritten without them."""

    def __init__(self) -> None:
        self.records: dict[str, dict] = {}
        self.good: list[bytes] = []
        self.rejected: list[tuple[int, bytes, str]] = []
        self.torn = False
        self.needs_newline = False

    def repair(self, path: Path) -> None:
        """Move the rejected lines to results.rejected.jsonl (first, durably), then rewrite
        results.jsonl with the good lines only (temp file + rename); one line on stderr each."""
        if not self.rejected:
            if self.needs_newline:
                with open(path, "ab") as fh:
                    fh.write(b"\n")
            return
        rejected = path.with_name(REJECTED)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        with open(rejected, "a", encoding="utf-8") as fh:
            for lineno, raw, why in self.rejected:
                # surrogateescape + ASCII JSON: the original bytes come back exactly, UTF-8 or not
                fh.write(json.dumps({"file": RESULTS, "line": lineno, "reason": why, "time": stamp,
                                     "text": raw.decode("utf-8", "surrogateescape")}) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            fh.writelines(self.good)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
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


def _scan(path: Path) -> _Scan:
    scan = _Scan()
    if not path.exists():
        return scan
    data = path.read_bytes()
    pos, lineno = 0, 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        line, pos, lineno = data[pos:end], end, lineno + 1
        if not line.strip():
            continue
        rec, why = _record(line)
        if nl < 0:  # no newline: the last write was cut short (or the file was edited by hand)
            if rec is None:
                scan.rejected.append((lineno, line, f"cut short: {why}"))
                scan.torn = True
                continue
            line += b"\n"
        if rec is None:
            scan.rejected.append((lineno, line, why))
            continue
        scan.records[str(rec["id"])] = rec
        scan.good.append(line)
    # a whole record without its newline (edited by hand): the next append must start a new line
    scan.needs_newline = bool(data) and not data.endswith(b"\n") and not scan.torn
    return scan


def read_records(directory: str | Path) -> list[dict]:
    """Records of a finished or partial run, sorted by id, without opening it for writing (lines
    that are not records are skipped)."""
    path = Path(directory) / RESULTS
    out: dict[str, dict] = {}
    if path.exists():
        for line in path.read_bytes().splitlines():
            rec, _ = _record(line)
            if rec is not None:
                out[str(rec["id"])] = rec
    return [out[k] for k in sorted(out)]
