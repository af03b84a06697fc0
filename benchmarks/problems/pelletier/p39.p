% Problem  : Pelletier 39
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 39
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    ~?[X]: ![Y]: (f(Y, X) <=> ~f(Y, Y))).
