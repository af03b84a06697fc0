"""The on-disk response cache, keyed by endpoint, model and request, so a rerun sends nothing twice.
Data only (SQLite rows of JSON, no pickle), checked again on every read, opened through the folder's
descriptor with `nofollow=1` so no link leads elsewhere; the oldest entries go first."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from ambit import _files

log = logging.getLogger("ambit.server.remote")

DB_NAME = "responses.sqlite3"
_SCHEMA = ("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
           "size INTEGER NOT NULL, stored REAL NOT NULL)")


def request_key(base_url: str, model: str, path: str, body: dict[str, Any]) -> str:
    text = json.dumps({"base_url": base_url, "model": model, "path": path, "body": body},
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_key(key: object) -> bool:
    return isinstance(key, str) and len(key) == 64 and all(c in "0123456789abcdef" for c in key)


class ResponseCache:
    """At most `max_bytes` on disk; an unusable folder is a warning, and no cache is used."""

    def __init__(self, root: Path, max_bytes: int) -> None:
        self.root, self.max_bytes = Path(root), max_bytes
        self._lock = threading.RLock()
        self._dir_fd: int | None = None
        self._db: sqlite3.Connection | None = None
        self._broken = False
        self._open()

    def _open(self) -> sqlite3.Connection | None:
        """The database, opened on first use (and again after `close`); None once it proved unusable."""
        with self._lock:
            if self._db is None and not self._broken:
                try:
                    self._dir_fd = _files.open_dir(self.root, create=0o700)
                    self._db = self._connect()
                except (OSError, sqlite3.Error) as e:
                    log.warning("response cache %s not used: %s", self.root, e)
                    self.close()
                    self._broken = True
            return self._db

    def _connect(self) -> sqlite3.Connection:
        folder = f"/proc/self/fd/{self._dir_fd}" if os.path.isdir("/proc/self/fd") else str(self.root)
        db = sqlite3.connect(f"file:{folder}/{DB_NAME}?nofollow=1", uri=True, timeout=30.0,
                             check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA auto_vacuum=FULL")  # takes effect on a new database: it shrinks as rows go
            db.execute(_SCHEMA)
            db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.Error:
            db.close()
            raise
        return db

    def get(self, key: str) -> dict | None:
        """The stored answer, or None (an entry failing its checks is deleted, with a warning)."""
        with self._lock:
            if self._open() is None:
                return None
            try:
                row = self._db.execute("SELECT key, value, size FROM entries WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error as e:
                log.warning("response cache %s: cannot read (%s); asking the endpoint", self.root, e)
                return None
        if row is None:
            return None
        value, why = _checked(key, row)
        if why:
            log.warning("response cache %s: entry %s… dropped (%s); asking the endpoint", self.root, key[:12], why)
            self.discard(key)
        return value

    def put(self, key: str, response: dict) -> None:
        if not _is_key(key):
            return
        text = json.dumps(response, ensure_ascii=False, allow_nan=False)
        size = len(text.encode("utf-8"))
        if size > self.max_bytes // 4:
            log.debug("response of %d characters not cached (over a quarter of --remote-cache-max-bytes)", len(text))
            return
        with self._lock:
            if self._open() is None:
                return
            try:
                self._db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)", (key, text, size, time.time()))
                self._cull()
            except sqlite3.Error as e:
                log.warning("response cache %s: cannot write (%s); answer not cached", self.root, e)

    def _cull(self) -> None:
        while self._volume() > self.max_bytes:
            count = self._db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
            if count == 0:
                return
            self._db.execute("DELETE FROM entries WHERE key IN (SELECT key FROM entries ORDER BY stored LIMIT ?)",
                             (max(1, count // 10),))

    def discard(self, key: str) -> None:
        with self._lock:
            if self._open() is None:
                return
            try:
                self._db.execute("DELETE FROM entries WHERE key = ?", (key,))
            except sqlite3.Error as e:
                log.warning("response cache %s: cannot delete an entry (%s)", self.root, e)

    def _volume(self) -> int:
        pages = self._db.execute("PRAGMA page_count").fetchone()[0]
        return pages * self._db.execute("PRAGMA page_size").fetchone()[0]

    def volume(self) -> int:
        """Bytes of the database on disk."""
        with self._lock:
            return 0 if self._open() is None else self._volume()

    def keys(self) -> list[str]:
        """The keys stored, oldest first."""
        with self._lock:
            if self._open() is None:
                return []
            return [k for (k,) in self._db.execute("SELECT key FROM entries ORDER BY stored")]

    def __len__(self) -> int:
        with self._lock:
            if self._open() is None:
                return 0
            return self._db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
            if self._dir_fd is not None:
                os.close(self._dir_fd)
                self._dir_fd = None


def _checked(key: str, row: tuple) -> tuple[dict | None, str]:
    """The entry's answer, or None and why the row is not a cached answer."""
    stored_key, value, size = row
    if stored_key != key or not _is_key(stored_key):
        return None, "its key is not the request's"
    if not isinstance(value, str):
        return None, f"its value is {type(value).__name__}, not JSON text"
    if not isinstance(size, int) or size != len(value.encode("utf-8", "surrogatepass")):
        return None, "its recorded size is not its size"
    try:
        answer = _files.parse_json(value, where="entry")
    except ValueError as e:
        return None, str(e)
    if not isinstance(answer, dict):
        return None, f"a JSON {type(answer).__name__}, not an object"
    return answer, ""
