% Problem  : Pelletier 57
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 57
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    p(f(a, b), f(b, c))).
fof(ax2, axiom,
    p(f(b, c), f(a, c))).
fof(ax3, axiom,
    ![X, Y, Z]: ((p(X, Y) & p(Y, Z)) => p(X, Z))).
fof(goal, conjecture,
    p(f(a, b), f(a, c))).
