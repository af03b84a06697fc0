% Problem  : affirming the consequent
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: (p(X) => q(X))).
fof(ax2, axiom,
    q(a)).
fof(goal, conjecture,
    p(a)).
