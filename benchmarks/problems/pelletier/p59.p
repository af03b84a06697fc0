% Problem  : Pelletier 59
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 59
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: (p(X) <=> ~p(f(X)))).
fof(goal, conjecture,
    ?[X]: (p(X) & ~p(f(X)))).
