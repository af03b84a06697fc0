% Problem  : Pelletier 63
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 63
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X, Y, Z]: f(f(X, Y), Z) = f(X, f(Y, Z))).
fof(ax2, axiom,
    ![X]: f(a, X) = X).
fof(ax3, axiom,
    ![X]: ?[Y]: f(Y, X) = a).
fof(goal, conjecture,
    ![X, Y, Z]: (f(X, Y) = f(Z, Y) => X = Z)).
