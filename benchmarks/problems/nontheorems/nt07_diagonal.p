% Problem  : a column equal to the diagonal need not exist
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    ?[X]: ![Y]: (f(Y, X) <=> f(Y, Y))).
