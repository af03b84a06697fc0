"""Cross-check against an independent prover (Z3) on generated pairs of AmP's fragment.

Pairs are built from random AmP-like LFs by edits that keep or break equivalence: duplicated
conjuncts, vacuous quantifiers, distributivity, absorption, role swaps, scope swaps, dropped
atoms, flipped quantifiers, and OR under a universal (outside the complete fragment). Wherever
both sides give a definite answer for a direction they must agree; UNKNOWNs are counted.
"""

from __future__ import annotations

import random

import pytest

z3 = pytest.importorskip("z3")
pytest.importorskip("pyswip")

from ambit.logic import And, Atom, Const, Or, Quant, Var, equivalent_batch, to_fol  # noqa: E402
from tests.helpers.equivalence import check_witness  # noqa: E402

from tests.helpers.z3_pairs import generated_pairs, z3_entails  # noqa: E402


def cross_check(n: int, seed: int) -> dict:
    pairs = generated_pairs(n, seed)
    # Once as users call it (pairs with equal canonical forms answered in Python), once with
    # Prolog deciding every pair: both must agree with z3.
    verdicts = equivalent_batch([(f, g) for _, f, g in pairs])
    proved = equivalent_batch([(f, g) for _, f, g in pairs], canonical_shortcut=False)
    assert [(v.a_entails_b, v.b_entails_a) for v in verdicts if v.witness != {"method": "canonical"}] == [
        (v.a_entails_b, v.b_entails_a) for v, w in zip(proved, verdicts) if w.witness != {"method": "canonical"}]
    pairs, verdicts = pairs + pairs, verdicts + proved
    disagreements, unknown_dirs, unknown_pairs, z3_unknown, definite = [], 0, 0, 0, 0
    for (op, f, g), v in zip(pairs, verdicts):
        if v.verdict == "NOT_EQUIVALENT":
            check_witness(f, g, v)  # the countermodel, re-checked by an independent evaluator
        ours = (v.a_entails_b, v.b_entails_a)
        theirs = (z3_entails(f, g), z3_entails(g, f))
        unknown_pairs += v.verdict == "UNKNOWN"
        for o, t in zip(ours, theirs):
            unknown_dirs += o is None
            z3_unknown += t is None
            if o is not None and t is not None:
                definite += 1
                if o != t:
                    disagreements.append((op, to_fol(f), to_fol(g), ours, theirs))
    print(f"\nz3 cross-check: {len(pairs)} pairs, {definite} directions decided by both, "
          f"{len(disagreements)} disagreements; ours UNKNOWN: {unknown_pairs} pairs / {unknown_dirs} directions; "
          f"z3 unknown: {z3_unknown} directions")
    assert not disagreements, disagreements[:5]
    return {"definite": definite, "unknown_dirs": unknown_dirs}


def test_agrees_with_z3_on_a_few_generated_pairs():
    assert cross_check(60, seed=3)["definite"] >= 90


@pytest.mark.slow
def test_agrees_with_z3_on_generated_pairs():
    assert cross_check(400, seed=7)["definite"] >= 600
