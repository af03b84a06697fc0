% Problem  : every element a source does not make every element a target
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ?[Y]: r(X, Y)).
fof(goal, conjecture,
    ![X]: ?[Y]: r(Y, X)).
