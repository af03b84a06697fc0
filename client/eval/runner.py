"""Run a suite's work items through a function, resumably and (optionally) concurrently.

Finished ids in the store are skipped; each result is appended durably as it completes.
Concurrency (``workers`` > 1) is what lets round-robin over several servers pay off.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Sequence

from client.eval.progress import Progress
from client.eval.store import ResultsStore


def run_items(store: ResultsStore, items: Sequence[dict], process: Callable[[dict], dict],
              desc: str, workers: int = 1, progress_every_s: float = 10.0) -> list[dict]:
    """Process every item whose id is not yet in ``store``; return all records, sorted by id.

    ``process(item)`` returns the record to store (its ``id`` is set from the item).
    """
    ids = [str(it["id"]) for it in items]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{desc}: duplicate item ids")
    todo = [it for it in items if str(it["id"]) not in store]
    progress = Progress(total=len(items), desc=desc, done=len(items) - len(todo),
                        every_s=progress_every_s)

    def one(item: dict) -> None:
        record = process(item)
        record["id"] = str(item["id"])
        store.append(record)

    try:
        if workers <= 1:
            for item in todo:
                one(item)
                progress.update()
        else:
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
    finally:
        progress.close()
    wanted = set(ids)
    return [r for r in store.records() if r["id"] in wanted]
