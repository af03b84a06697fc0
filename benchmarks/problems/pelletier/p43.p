% Problem  : Pelletier 43
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 43
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X, Y]: (q(X, Y) <=> ![Z]: (f(Z, X) <=> f(Z, Y)))).
fof(goal, conjecture,
    ![X, Y]: (q(X, Y) <=> q(Y, X))).
