% Problem  : Pelletier 30
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 30
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X]: ((f(X) | g(X)) => ~h(X))).
fof(ax2, axiom,
    ![X]: ((g(X) => ~i(X)) => (f(X) & h(X)))).
fof(goal, conjecture,
    ![X]: i(X)).
