% Problem  : something need not be missing
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    ![X]: (p(X) => ?[Y]: ~p(Y))).
