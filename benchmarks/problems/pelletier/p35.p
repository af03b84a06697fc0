% Problem  : Pelletier 35
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 35
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    ?[X, Y]: (p(X, Y) => ![X1, Y1]: p(X1, Y1))).
