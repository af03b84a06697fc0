% Problem  : Pelletier 40
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 40
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    (?[Y]: ![X]: (f(X, Y) <=> f(X, X))) => ~![X]: ?[Y]: ![Z]: (f(Z, Y) <=> ~f(Z, X))).
