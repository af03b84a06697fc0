% Problem  : pigeonhole, 7 pigeons in 6 holes
% Source   : written for ambit (a hard small problem; issue 36: no Prolog stage solved it when it was added)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    in(p1, h1) | in(p1, h2) | in(p1, h3) | in(p1, h4) | in(p1, h5) | in(p1, h6)).
fof(ax2, axiom,
    in(p2, h1) | in(p2, h2) | in(p2, h3) | in(p2, h4) | in(p2, h5) | in(p2, h6)).
fof(ax3, axiom,
    in(p3, h1) | in(p3, h2) | in(p3, h3) | in(p3, h4) | in(p3, h5) | in(p3, h6)).
fof(ax4, axiom,
    in(p4, h1) | in(p4, h2) | in(p4, h3) | in(p4, h4) | in(p4, h5) | in(p4, h6)).
fof(ax5, axiom,
    in(p5, h1) | in(p5, h2) | in(p5, h3) | in(p5, h4) | in(p5, h5) | in(p5, h6)).
fof(ax6, axiom,
    in(p6, h1) | in(p6, h2) | in(p6, h3) | in(p6, h4) | in(p6, h5) | in(p6, h6)).
fof(ax7, axiom,
    in(p7, h1) | in(p7, h2) | in(p7, h3) | in(p7, h4) | in(p7, h5) | in(p7, h6)).
fof(goal, conjecture,
    ?[H]: ((in(p1, H) & in(p2, H)) | (in(p1, H) & in(p3, H)) | (in(p1, H) & in(p4, H)) | (in(p1, H) & in(p5, H)) | (in(p1, H) & in(p6, H)) | (in(p1, H) & in(p7, H)) | (in(p2, H) & in(p3, H)) | (in(p2, H) & in(p4, H)) | (in(p2, H) & in(p5, H)) | (in(p2, H) & in(p6, H)) | (in(p2, H) & in(p7, H)) | (in(p3, H) & in(p4, H)) | (in(p3, H) & in(p5, H)) | (in(p3, H) & in(p6, H)) | (in(p3, H) & in(p7, H)) | (in(p4, H) & in(p5, H)) | (in(p4, H) & in(p6, H)) | (in(p4, H) & in(p7, H)) | (in(p5, H) & in(p6, H)) | (in(p5, H) & in(p7, H)) | (in(p6, H) & in(p7, H)))).
