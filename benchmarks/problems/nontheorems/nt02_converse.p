% Problem  : an implication does not give its converse
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    p => q).
fof(goal, conjecture,
    q => p).
