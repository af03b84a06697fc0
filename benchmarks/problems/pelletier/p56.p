% Problem  : Pelletier 56
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 56
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    (![X]: ((?[Y]: (p(Y) & X = f(Y))) => p(X))) <=> ![X]: (p(X) => p(f(X)))).
