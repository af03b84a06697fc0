"""The engine on the pairs that cost it most (tests/helpers/amp_tail_pairs.py: alternating
prefixes with one bound occurrence renamed, an ∃∀ swapped, rewrites that keep the meaning):
every verdict agrees with E where E decides a direction, every model is checked by an
independent checker, and a proof the first stage's second step gives (`instances`) is never
one E refutes. Speed and the UNKNOWN count are measured by `equiv_bench.py --section tail`."""

from __future__ import annotations

import shutil

import pytest

if shutil.which("swipl") is None:
    pytest.skip("SWI-Prolog (swipl) is not installed", allow_module_level=True)

from ambit.logic.engine import equivalence  # noqa: E402
from tests.helpers.amp_tail_pairs import KINDS, tail_pairs  # noqa: E402
from tests.helpers.equivalence import check_witness  # noqa: E402

PAIRS = tail_pairs(90, seed=7)


def test_the_generator_gives_each_kind_and_differing_pairs():
    assert {k for k, _, _ in PAIRS} == set(KINDS)
    assert all(a != b for _, a, b in PAIRS)


@pytest.mark.skipif(shutil.which("eprover") is None, reason="E prover (eprover) not installed")
def test_verdicts_agree_with_e_and_models_are_checked():
    from ambit.logic.provers import eprover

    verdicts = equivalence.equivalent_batch([(a, b) for _, a, b in PAIRS])
    instances = 0
    for (kind, a, b), v in zip(PAIRS, verdicts):
        if v.verdict == "NOT_EQUIVALENT":
            check_witness(a, b, v)
        for ours, (x, y) in ((v.a_entails_b, (a, b)), (v.b_entails_a, (b, a))):
            theirs = eprover.prove([x], y, 10, proof_object=False).proved
            if ours is not None and theirs is not None:
                assert ours == theirs, (kind, v)
        instances += "instances" in (v.witness or {}).values()
    assert instances > 0  # the step was used, so its proofs were held against E
    assert sum(v.verdict != "UNKNOWN" for v in verdicts) >= len(PAIRS) - 2
