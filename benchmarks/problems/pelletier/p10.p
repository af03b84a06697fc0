% Problem  : Pelletier 10
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 10
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    q => r).
fof(ax2, axiom,
    r => (p & q)).
fof(ax3, axiom,
    p => (q | r)).
fof(goal, conjecture,
    p <=> q).
