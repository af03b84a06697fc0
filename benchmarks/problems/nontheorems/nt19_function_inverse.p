% Problem  : closure under f backwards does not give it forwards (function terms)
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: (p(f(X)) => p(X))).
fof(goal, conjecture,
    ![X]: (p(X) => p(f(X)))).
