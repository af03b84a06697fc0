% Problem  : Pelletier 25
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 25 (as published, its axioms contradict one another)
% Status   : ContradictoryAxioms
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ?[X]: p(X)).
fof(ax2, axiom,
    ![X]: (f(X) => (~g(X) & r(X)))).
fof(ax3, axiom,
    ![X]: (p(X) => (g(X) & f(X)))).
fof(ax4, axiom,
    (![X]: (p(X) => q(X))) | ?[X]: (p(X) & r(X))).
fof(goal, conjecture,
    ?[X]: (q(X) & p(X))).
