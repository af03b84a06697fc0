"""The on-disk response cache: one JSON file per request, keyed by endpoint, model and the
request itself, so a rerun or a resumed eval sends nothing twice (lm-evaluation-harness's
`--use_cache` is the anchor). Files are written whole (temp file + rename), so concurrent
writers and a killed process leave either no entry or a complete one. The API key is not part
of the key and is never written."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def request_key(base_url: str, model: str, path: str, body: dict[str, Any]) -> str:
    text = json.dumps({"base_url": base_url, "model": model, "path": path, "body": body},
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResponseCache:
    """`get(key)` → the stored response or None; `put(key, response)`."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        try:
            return json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, key: str, response: dict) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(response, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
