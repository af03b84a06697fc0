% Problem  : Pelletier 48
% Source   : F. J. Pelletier, Seventy-five problems for testing automatic theorem provers, JAR 2 (1986), problem 48
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    a = b | c = d).
fof(ax2, axiom,
    a = c | b = d).
fof(goal, conjecture,
    a = d | b = c).
