% Problem  : Pelletier 32
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 32
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ((f(X) & (g(X) | h(X))) => i(X))).
fof(ax2, axiom,
    ![X]: ((i(X) & h(X)) => j(X))).
fof(ax3, axiom,
    ![X]: (k(X) => h(X))).
fof(goal, conjecture,
    ![X]: ((f(X) & k(X)) => j(X))).
