% Problem  : two distinct names need not be everything
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    a != b).
fof(goal, conjecture,
    ![X]: (X = a | X = b)).
