% Problem  : Pelletier 29
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 29
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    (?[X]: f(X)) & ?[X]: g(X)).
fof(goal, conjecture,
    ((![X]: (f(X) => h(X))) & ![X]: (g(X) => j(X))) <=> ![X, Y]: ((f(X) & g(Y)) => (h(X) & j(Y)))).
