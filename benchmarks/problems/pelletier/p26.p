% Problem  : Pelletier 26
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 26
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    (?[X]: p(X)) <=> ?[X]: q(X)).
fof(ax2, axiom,
    ![X, Y]: ((p(X) & q(Y)) => (r(X) <=> s(Y)))).
fof(goal, conjecture,
    (![X]: (p(X) => r(X))) <=> ![X]: (q(X) => s(X))).
