"""Reading an eval's results.jsonl while the eval may still be writing it."""

from __future__ import annotations

import json
from pathlib import Path


def finished_records(out: Path) -> list[dict]:
    """The records of `out`/results.jsonl whose lines are complete: the eval appends a line at a
    time, and a reader that looks while it writes can see part of the last one (up to a page),
    which is not a record yet."""
    text = (out / "results.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]
