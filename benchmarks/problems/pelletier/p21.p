% Problem  : Pelletier 21
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 21
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ?[X]: (p => f(X))).
fof(ax2, axiom,
    ?[X]: (f(X) => p)).
fof(goal, conjecture,
    ?[X]: (p <=> f(X))).
