% Problem  : Pelletier 27
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 27
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ?[X]: (f(X) & ~g(X))).
fof(ax2, axiom,
    ![X]: (f(X) => h(X))).
fof(ax3, axiom,
    ![X]: ((j(X) & i(X)) => f(X))).
fof(ax4, axiom,
    (?[X]: (h(X) & ~g(X))) => ![X]: (i(X) => ~h(X))).
fof(goal, conjecture,
    ![X]: (j(X) => ~i(X))).
