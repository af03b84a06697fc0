% Problem  : two names with a property need not be equal
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    p(a)).
fof(ax2, axiom,
    p(b)).
fof(goal, conjecture,
    a = b).
