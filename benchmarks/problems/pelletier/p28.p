% Problem  : Pelletier 28
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 28
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: (p(X) => ![Y]: q(Y))).
fof(ax2, axiom,
    (![X]: (q(X) | r(X))) => ?[X]: (q(X) & s(X))).
fof(ax3, axiom,
    (?[X]: s(X)) => ![X]: (f(X) => g(X))).
fof(goal, conjecture,
    ![X]: ((p(X) & f(X)) => g(X))).
