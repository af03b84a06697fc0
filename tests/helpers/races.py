"""A folder swapped for a symbolic link to outside its root while reads go on (the TPTP include
race): the one swapping loop and read loop that the file layer's and the include reader's tests
share.

The swapping thread holds the real folder in place for a random pause (up to 0.2 ms, every other
turn) with the GIL released, so the reads land on both states however busy the machine is: with
no pause, a loaded machine gave the real folder to 1 read in 3,000 (and none in CI), and a test
that never sees a read succeed proves nothing about the race. Reads go on until both a success and
a refusal have been seen (at least ``tries`` reads, at most ``seconds``)."""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Callable


def swap_while_reading(real: Path, outside: Path, read: Callable[[], str], *,
                       refusals: tuple[type[Exception], ...] = (OSError,), tries: int = 3000,
                       seconds: float = 60.0) -> Counter[str]:
    """Count what ``read`` gives (or ``"refused"`` where it raises one of ``refusals``) while ``real`` is
    renamed away, replaced by a link to ``outside``, and put back, over and over."""
    aside = real.with_name(real.name + ".real")
    stop = threading.Event()
    pause = random.Random(0)

    failed: list[BaseException] = []

    def swap() -> None:
        turn = 0
        try:
            while not stop.is_set():
                os.rename(real, aside)
                real.symlink_to(outside)
                real.unlink()
                os.rename(aside, real)
                turn += 1
                if turn % 2:
                    time.sleep(pause.uniform(0, 2e-4))
        except BaseException as err:  # noqa: BLE001 - handed to the reading side below
            failed.append(err)

    thread = threading.Thread(target=swap)
    thread.start()
    seen: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline and not failed:
            try:
                seen[read()] += 1
            except refusals:
                seen["refused"] += 1
            if sum(seen.values()) >= tries and len(seen) > 1:
                break
    finally:
        stop.set()
        thread.join()
    if failed:
        raise AssertionError(f"the swapping thread stopped after {sum(seen.values())} reads") from failed[0]
    return seen
