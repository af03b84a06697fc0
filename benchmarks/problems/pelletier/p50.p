% Problem  : Pelletier 50
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 50
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    (![X]: (f(a, X) | ![Y]: f(X, Y))) => ?[X]: ![Y]: f(X, Y)).
