% Problem  : Pelletier 38
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 38
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    (![X]: ((p(a) & (p(X) => ?[Y]: (p(Y) & r(X, Y)))) => ?[Z, W]: (p(Z) & r(X, W) & r(W, Z)))) <=> ![X]: ((~p(a) | p(X) | ?[Z, W]: (p(Z) & r(X, W) & r(W, Z))) & (~p(a) | ~?[Y]: (p(Y) & r(X, Y)) | ?[Z, W]: (p(Z) & r(X, W) & r(W, Z))))).
