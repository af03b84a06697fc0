% Problem  : two distinct elements do not make three
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ?[X, Y]: X != Y).
fof(goal, conjecture,
    ?[X, Y, Z]: (X != Y & Y != Z & X != Z)).
