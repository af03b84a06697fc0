% Problem  : a dense strict order on at most 4 elements is empty
% Source   : written for ambit (a hard small problem; issue 36: no Prolog stage solved it when it was added)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(irreflexive, axiom,
    ![X]: ~lt(X, X)).
fof(transitive, axiom,
    ![X, Y, Z]: ((lt(X, Y) & lt(Y, Z)) => lt(X, Z))).
fof(dense, axiom,
    ![X, Y]: (lt(X, Y) => ?[Z]: (lt(X, Z) & lt(Z, Y)))).
fof(closure, axiom,
    ![X]: (X = a | X = b | X = c | X = d)).
fof(goal, conjecture,
    ![X, Y]: ~lt(X, Y)).
