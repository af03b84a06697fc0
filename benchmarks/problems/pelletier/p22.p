% Problem  : Pelletier 22
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 22
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    (![X]: (p <=> f(X))) => (p <=> ![X]: f(X))).
