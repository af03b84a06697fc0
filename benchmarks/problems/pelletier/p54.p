% Problem  : Pelletier 54
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 54
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![Y]: ?[Z]: ![X]: (f(X, Z) <=> X = Y)).
fof(goal, conjecture,
    ~?[W]: ![X]: (f(X, W) <=> ![U]: (f(X, U) => ?[Y]: (f(Y, U) & ~?[Z]: (f(Z, U) & f(Z, Y)))))).
