% Problem  : equivalent statements need not both hold
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    p <=> q).
fof(goal, conjecture,
    p & q).
