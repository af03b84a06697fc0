"""Formulas shared by the dialect, reader and prover tests: a hypothesis strategy over the full
first-order syntax, and named problems."""

from __future__ import annotations

from hypothesis import strategies as st

from ambit.logic.syntax.ast import And, Atom, Const, Eq, Iff, Implies, Not, Or, Quant, Var, Xor


def formulas(var_names, preds, consts, xor=True):
    def atoms(bound):
        terms = st.sampled_from([*(Var(v) for v in bound), *(Const(c) for c in consts)])
        atom = st.builds(lambda p, a: Atom(p, tuple(a)), st.sampled_from(preds), st.lists(terms, max_size=3))
        return st.one_of(atom, st.builds(Eq, terms, terms))

    def tree(bound, depth):
        if depth == 0:
            return atoms(bound)
        sub = tree(bound, depth - 1)
        bins = [Implies, Iff] + ([Xor] if xor else [])
        return st.one_of(
            atoms(bound),
            st.builds(Not, sub),
            st.builds(lambda cs: And(tuple(cs)), st.lists(sub, min_size=2, max_size=3)),
            st.builds(lambda cs: Or(tuple(cs)), st.lists(sub, min_size=2, max_size=3)),
            st.builds(lambda c, a, b: c(a, b), st.sampled_from(bins), sub, sub),
            st.sampled_from(var_names).flatmap(
                lambda v: st.builds(lambda k, b: Quant(k, v, b), st.sampled_from(["forall", "exists"]),
                                    tree(bound | {v}, depth - 1))),
        )

    return tree(frozenset(), 3)


# Pelletier's problem 38 in TPTP
P38 = ("(![X]: ((p(a) & (p(X) => ?[Y]: (p(Y) & r(X, Y)))) => ?[Z, W]: (p(Z) & r(X, W) & r(W, Z)))) <=> "
       "![X]: ((~p(a) | p(X) | ?[Z, W]: (p(Z) & r(X, W) & r(W, Z))) & "
       "(~p(a) | ~?[Y]: (p(Y) & r(X, Y)) | ?[Z, W]: (p(Z) & r(X, W) & r(W, Z))))")
