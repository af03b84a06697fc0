% Problem  : a serial irreflexive relation need not have a 2-cycle
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ?[Y]: r(X, Y)).
fof(ax2, axiom,
    ![X]: ~r(X, X)).
fof(goal, conjecture,
    ?[X, Y]: (r(X, Y) & r(Y, X))).
