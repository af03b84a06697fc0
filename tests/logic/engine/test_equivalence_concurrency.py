"""Many Python threads checking at once: every answer right, no pyswip error (one Prolog worker)."""

from __future__ import annotations

import random
import threading

import pytest

pytest.importorskip("pyswip")

from ambit.logic import entails, equivalent, equivalent_batch  # noqa: E402
from tests.helpers.equivalence import CASES  # noqa: E402

THREADS, CHECKS = 8, 200


def test_eight_threads_two_hundred_mixed_checks_each():
    errors: list[BaseException] = []
    wrong: list[tuple] = []
    done = [0] * THREADS
    start = threading.Barrier(THREADS)

    def work(k: int) -> None:
        rng = random.Random(k)
        start.wait()
        try:
            for i in range(CHECKS):
                a, b, ab, ba = rng.choice(CASES)
                kind = i % 3
                if kind == 0:
                    v = equivalent(a, b)
                    got, want = (v.a_entails_b, v.b_entails_a), (ab, ba)
                elif kind == 1:
                    got, want = entails(b, a), ba
                else:
                    batch = rng.sample(CASES, 3)
                    vs = equivalent_batch([(x, y) for x, y, _, _ in batch])
                    got = [(v.a_entails_b, v.b_entails_a) for v in vs]
                    want = [(x, y) for _, _, x, y in batch]
                if got != want:
                    wrong.append((k, i, a, b, got, want))
                done[k] += 1
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=900)
    assert not errors, errors[:3]
    assert not wrong, wrong[:3]
    assert done == [CHECKS] * THREADS
