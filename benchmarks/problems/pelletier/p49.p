% Problem  : Pelletier 49
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 49
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ?[X, Y]: ![Z]: (Z = X | Z = Y)).
fof(ax2, axiom,
    p(a) & p(b)).
fof(ax3, axiom,
    a != b).
fof(goal, conjecture,
    ![X]: p(X)).
