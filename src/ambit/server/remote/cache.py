"""The on-disk response cache, keyed by endpoint, model and the request itself, so a rerun or a
resumed eval sends nothing twice (lm-evaluation-harness's `--use_cache` is the anchor). The API
key is not part of the key and is never written; only answers that passed validation are stored.

It is a `diskcache.Cache` (SQLite, plus a file for each entry over 32 KB) rather than one JSON
file per entry: diskcache writes each entry in a transaction (a killed process leaves no half
entry), keeps the cache's total size in its database, so several processes sharing the folder
see one bound, and evicts the oldest entries first (`least-recently-stored`) once the folder
passes `max_bytes`. One JSON file per entry would need a walk of the folder to know its size.
Entries are JSON text (no pickle)."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger("ambit.server.remote")


def request_key(base_url: str, model: str, path: str, body: dict[str, Any]) -> str:
    text = json.dumps({"base_url": base_url, "model": model, "path": path, "body": body},
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResponseCache:
    """`get(key)` → the stored response or None; `put(key, response)`; `discard(key)`. At most
    `max_bytes` on disk (an entry larger than a quarter of it is not stored)."""

    def __init__(self, root: Path, max_bytes: int) -> None:
        import diskcache

        self.root = Path(root)
        self.max_bytes = max_bytes
        self._db = diskcache.Cache(str(self.root), size_limit=max_bytes, eviction_policy="least-recently-stored",
                                   cull_limit=0)  # culled by `put` itself, to the bound

    def get(self, key: str) -> dict | None:
        text = self._db.get(key)
        if not isinstance(text, str):
            return None
        try:
            value = json.loads(text)
        except ValueError:
            self.discard(key)
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, response: dict) -> None:
        text = json.dumps(response, ensure_ascii=False, allow_nan=False)
        if len(text.encode("utf-8")) > self.max_bytes // 4:
            log.debug("response of %d characters not cached (over a quarter of --remote-cache-max-bytes)", len(text))
            return
        self._db.set(key, text)
        if self._db.volume() > self.max_bytes:
            self._db.cull()  # the oldest entries first, until the folder is under the bound

    def discard(self, key: str) -> None:
        self._db.delete(key)

    def volume(self) -> int:
        """Bytes on disk (database and entry files)."""
        return self._db.volume()

    def __len__(self) -> int:
        return len(self._db)

    def close(self) -> None:
        self._db.close()
