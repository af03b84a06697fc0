% Problem  : forall does not distribute over or
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: (p(X) | q(X))).
fof(goal, conjecture,
    (![X]: p(X)) | ![X]: q(X)).
