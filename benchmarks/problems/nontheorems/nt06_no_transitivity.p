% Problem  : reflexive and symmetric is not transitive
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: r(X, X)).
fof(ax2, axiom,
    ![X, Y]: (r(X, Y) => r(Y, X))).
fof(goal, conjecture,
    ![X, Y, Z]: ((r(X, Y) & r(Y, Z)) => r(X, Z))).
