% Problem  : Los's problem: P or Q covers all pairs, both transitive, Q symmetric
% Source   : written for ambit (a hard small problem)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    ![X, Y, Z]: ((p(X, Y) & p(Y, Z)) => p(X, Z))).
fof(ax2, axiom,
    ![X, Y, Z]: ((q(X, Y) & q(Y, Z)) => q(X, Z))).
fof(ax3, axiom,
    ![X, Y]: (q(X, Y) => q(Y, X))).
fof(ax4, axiom,
    ![X, Y]: (p(X, Y) | q(X, Y))).
fof(goal, conjecture,
    (![X, Y]: p(X, Y)) | ![X, Y]: q(X, Y)).
