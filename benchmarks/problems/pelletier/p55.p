% Problem  : Pelletier 55
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 55
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ?[X]: (lives(X) & killed(X, agatha))).
fof(ax2, axiom,
    lives(agatha) & lives(butler) & lives(charles)).
fof(ax3, axiom,
    ![X]: (lives(X) => (X = agatha | X = butler | X = charles))).
fof(ax4, axiom,
    ![X, Y]: (killed(X, Y) => hates(X, Y))).
fof(ax5, axiom,
    ![X, Y]: (killed(X, Y) => ~richer(X, Y))).
fof(ax6, axiom,
    ![X]: (hates(agatha, X) => ~hates(charles, X))).
fof(ax7, axiom,
    ![X]: (X != butler => hates(agatha, X))).
fof(ax8, axiom,
    ![X]: (~richer(X, agatha) => hates(butler, X))).
fof(ax9, axiom,
    ![X]: (hates(agatha, X) => hates(butler, X))).
fof(ax10, axiom,
    ![X]: ?[Y]: ~hates(X, Y)).
fof(ax11, axiom,
    agatha != butler).
fof(goal, conjecture,
    killed(agatha, agatha)).
