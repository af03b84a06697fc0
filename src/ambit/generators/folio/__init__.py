"""FOLIO-style stories generated from syllogism patterns (labels known by construction), and
perturbed "translations" of their formulas: inputs for `ambit eval folio` in a bare clone."""

from ambit.generators.folio.generate import PATTERNS, stories
from ambit.generators.folio.perturb import PERTURBATIONS, perturb

__all__ = ["PATTERNS", "PERTURBATIONS", "perturb", "stories"]
