% Problem  : Pelletier 20
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 20
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    (![X, Y]: ?[Z]: ![W]: ((p(X) & q(Y)) => (r(Z) & s(W)))) => ((?[X, Y]: (p(X) & q(Y))) => ?[Z]: r(Z))).
