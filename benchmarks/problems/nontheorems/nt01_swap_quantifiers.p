% Problem  : forall-exists does not give exists-forall
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ?[Y]: r(X, Y)).
fof(goal, conjecture,
    ?[Y]: ![X]: r(X, Y)).
