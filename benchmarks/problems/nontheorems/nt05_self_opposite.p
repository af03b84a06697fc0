% Problem  : not every element has an opposite
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    ![X]: ?[Y]: (f(X) <=> ~f(Y))).
