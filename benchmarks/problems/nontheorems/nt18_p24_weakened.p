% Problem  : Pelletier 24 without its last axiom
% Source   : written for ambit (a non-theorem)
% Status   : CounterSatisfiable
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ~?[X]: (s(X) & q(X))).
fof(ax2, axiom,
    ![X]: (p(X) => (q(X) | r(X)))).
fof(ax3, axiom,
    (~?[X]: p(X)) => ?[X]: q(X)).
fof(goal, conjecture,
    ?[X]: (p(X) & r(X))).
