% Problem  : Pelletier 46
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 46
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ((f(X) & ![Y]: ((f(Y) & h(Y, X)) => g(Y))) => g(X))).
fof(ax2, axiom,
    (?[X]: (f(X) & ~g(X))) => ?[X]: (f(X) & ~g(X) & ![Y]: ((f(Y) & ~g(Y)) => j(X, Y)))).
fof(ax3, axiom,
    ![X, Y]: ((f(X) & f(Y) & h(X, Y)) => ~j(Y, X))).
fof(goal, conjecture,
    ![X]: (f(X) => g(X))).
