% Problem  : Pelletier 62
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 62
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    (![X]: ((p(a) & (p(X) => p(f(X)))) => p(f(f(X))))) <=> ![X]: ((~p(a) | p(X) | p(f(f(X)))) & (~p(a) | ~p(f(X)) | p(f(f(X)))))).
