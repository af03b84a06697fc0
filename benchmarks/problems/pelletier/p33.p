% Problem  : Pelletier 33
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 33
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    (![X]: ((p(a) & (p(X) => p(b))) => p(c))) <=> ![X]: ((~p(a) | p(X) | p(c)) & (~p(a) | ~p(b) | p(c)))).
