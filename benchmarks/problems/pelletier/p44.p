% Problem  : Pelletier 44
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 44
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: (f(X) => ((?[Y]: (g(Y) & h(X, Y))) & ?[Y]: (g(Y) & ~h(X, Y))))).
fof(ax2, axiom,
    ?[X]: (j(X) & ![Y]: (g(Y) => h(X, Y)))).
fof(goal, conjecture,
    ?[X]: (j(X) & ~f(X))).
