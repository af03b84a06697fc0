% Problem  : K4 has no proper 3-colouring
% Source   : written for ambit (a hard small problem)
% Status   : Theorem
% Written for ambit's benchmarks (benchmarks/fol_bench.py --section classic).
fof(ax1, axiom,
    colour(n1, red) | colour(n1, green) | colour(n1, blue)).
fof(ax2, axiom,
    colour(n2, red) | colour(n2, green) | colour(n2, blue)).
fof(ax3, axiom,
    colour(n3, red) | colour(n3, green) | colour(n3, blue)).
fof(ax4, axiom,
    colour(n4, red) | colour(n4, green) | colour(n4, blue)).
fof(goal, conjecture,
    ?[C]: ((colour(n1, C) & colour(n2, C)) | (colour(n1, C) & colour(n3, C)) | (colour(n1, C) & colour(n4, C)) | (colour(n2, C) & colour(n3, C)) | (colour(n2, C) & colour(n4, C)) | (colour(n3, C) & colour(n4, C)))).
