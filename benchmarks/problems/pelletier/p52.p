% Problem  : Pelletier 52
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 52
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ?[Z, W]: ![X, Y]: (f(X, Y) <=> (X = Z & Y = W))).
fof(goal, conjecture,
    ?[W]: ![Y]: ((?[Z]: ![X]: (f(X, Y) <=> X = Z)) <=> Y = W)).
