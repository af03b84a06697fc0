% Problem  : pigeonhole, 3 pigeons in 2 holes
% Source   : written for ambit (a hard small problem)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    in(p1, h1) | in(p1, h2)).
fof(ax2, axiom,
    in(p2, h1) | in(p2, h2)).
fof(ax3, axiom,
    in(p3, h1) | in(p3, h2)).
fof(goal, conjecture,
    ?[H]: ((in(p1, H) & in(p2, H)) | (in(p1, H) & in(p3, H)) | (in(p2, H) & in(p3, H)))).
