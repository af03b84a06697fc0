% Problem  : pigeonhole, 5 pigeons in 4 holes
% Source   : written for ambit (a hard small problem)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    in(p1, h1) | in(p1, h2) | in(p1, h3) | in(p1, h4)).
fof(ax2, axiom,
    in(p2, h1) | in(p2, h2) | in(p2, h3) | in(p2, h4)).
fof(ax3, axiom,
    in(p3, h1) | in(p3, h2) | in(p3, h3) | in(p3, h4)).
fof(ax4, axiom,
    in(p4, h1) | in(p4, h2) | in(p4, h3) | in(p4, h4)).
fof(ax5, axiom,
    in(p5, h1) | in(p5, h2) | in(p5, h3) | in(p5, h4)).
fof(goal, conjecture,
    ?[H]: ((in(p1, H) & in(p2, H)) | (in(p1, H) & in(p3, H)) | (in(p1, H) & in(p4, H)) | (in(p1, H) & in(p5, H)) | (in(p2, H) & in(p3, H)) | (in(p2, H) & in(p4, H)) | (in(p2, H) & in(p5, H)) | (in(p3, H) & in(p4, H)) | (in(p3, H) & in(p5, H)) | (in(p4, H) & in(p5, H)))).
