% Problem  : Pelletier 58
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 58
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X, Y]: f(X) = g(Y)).
fof(goal, conjecture,
    ![X, Y]: f(f(X)) = f(g(Y))).
