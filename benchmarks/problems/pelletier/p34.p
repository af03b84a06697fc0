% Problem  : Pelletier 34
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 34
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    ((?[X]: ![Y]: (p(X) <=> p(Y))) <=> ((?[X]: q(X)) <=> ![Y]: p(Y))) <=> ((?[X]: ![Y]: (q(X) <=> q(Y))) <=> ((?[X]: p(X)) <=> ![Y]: q(Y)))).
