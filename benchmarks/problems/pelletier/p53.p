% Problem  : Pelletier 53
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 53
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ?[X, Y]: (X != Y & ![Z]: (Z = X | Z = Y))).
fof(goal, conjecture,
    (?[Z]: ![X]: ((?[W]: ![Y]: (f(X, Y) <=> Y = W)) <=> X = Z)) <=> ?[W]: ![Y]: ((?[Z]: ![X]: (f(X, Y) <=> X = Z)) <=> Y = W)).
