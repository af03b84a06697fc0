"""Append-only, resumable results file: ``results.jsonl`` plus ``run.json`` (the run key).

Each finished item is one JSON line, written, flushed and fsynced before the next one is
reported done, so a crash loses at most the item in flight. Reopening the same directory
with the same run key resumes (finished ids are skipped); a different key is refused with
a clear error instead of silently mixing two runs in one file.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

RESULTS = "results.jsonl"
RUN_KEY = "run.json"
REMOTE = "remote"  # run.json's block about a model served elsewhere (client.eval.remote): not part of the key


class RunMismatch(RuntimeError):
    """The output directory holds results of a run with different arguments."""


class ResultsStore:
    """Records keyed by ``record["id"]`` in ``<dir>/results.jsonl``; thread-safe appends."""

    def __init__(self, directory: str | Path, key: Mapping[str, Any]):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / RESULTS
        self.key = json.loads(json.dumps(dict(key), sort_keys=True))
        self._check_key()
        self._records: dict[str, dict] = {}
        self.failed = 0  # items that failed for good in this session (see client.eval.runner)
        self._load()
        self._lock = threading.Lock()
        self._fh = open(self.path, "a", encoding="utf-8")

    def _check_key(self) -> None:
        key_path = self.dir / RUN_KEY
        if key_path.exists():
            old = json.loads(key_path.read_text(encoding="utf-8"))
            old.pop(REMOTE, None)
            if old != self.key:
                diff = sorted(k for k in set(old) | set(self.key) if old.get(k) != self.key.get(k))
                details = ", ".join(f"{k}: {old.get(k)!r} -> {self.key.get(k)!r}" for k in diff)
                raise RunMismatch(
                    f"{self.dir} holds results of a run with different arguments ({details}); "
                    f"use another --out directory, or delete {self.dir} to start over")
        else:
            tmp = key_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.key, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(tmp, key_path)

    def _load(self) -> None:
        """Read finished records; drop a torn last line (a crash mid-write) from the file."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        good_end = 0
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl < 0:
                break  # torn final line: no newline was written
            line = data[pos:nl]
            pos = nl + 1
            if line.strip():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    break
                self._records[str(rec["id"])] = rec
            good_end = pos
        if good_end < len(data):
            with open(self.path, "r+b") as fh:
                fh.truncate(good_end)
                fh.flush()
                os.fsync(fh.fileno())

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
        self._fh.close()

    def __enter__(self) -> "ResultsStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_records(directory: str | Path) -> list[dict]:
    """Records of a finished or partial run, sorted by id, without opening it for writing."""
    path = Path(directory) / RESULTS
    out: dict[str, dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            out[str(rec["id"])] = rec
    return [out[k] for k in sorted(out)]
