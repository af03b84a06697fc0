% Problem  : an asymmetric successor need not loop
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ?[Y]: (r(X, Y) & ~r(Y, X))).
fof(goal, conjecture,
    ?[X]: r(X, X)).
