% Problem  : Pelletier 36
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 36
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ?[Y]: f(X, Y)).
fof(ax2, axiom,
    ![X]: ?[Y]: g(X, Y)).
fof(ax3, axiom,
    ![X, Y]: ((f(X, Y) | g(X, Y)) => ![Z]: ((f(Y, Z) | g(Y, Z)) => h(X, Z)))).
fof(goal, conjecture,
    ![X]: ?[Y]: h(X, Y)).
