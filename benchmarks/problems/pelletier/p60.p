% Problem  : Pelletier 60
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 60
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(goal, conjecture,
    ![X]: (p(X, f(X)) <=> ?[Y]: ((![Z]: (p(Z, Y) => p(Z, f(X)))) & p(X, Y)))).
