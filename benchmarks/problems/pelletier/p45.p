% Problem  : Pelletier 45
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 45
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ((f(X) & ![Y]: ((g(Y) & h(X, Y)) => j(X, Y))) => ![Y]: ((g(Y) & h(X, Y)) => k(Y)))).
fof(ax2, axiom,
    ~?[Y]: (l(Y) & k(Y))).
fof(ax3, axiom,
    ?[X]: (f(X) & (![Y]: (h(X, Y) => l(Y))) & ![Y]: ((g(Y) & h(X, Y)) => j(X, Y)))).
fof(goal, conjecture,
    ?[X]: (f(X) & ~?[Y]: (g(Y) & h(X, Y)))).
