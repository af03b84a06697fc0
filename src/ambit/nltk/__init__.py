"""ambit where NLTK calls a prover: drop-ins for NLTK's Prover9 and Mace (the `nltk` extra:
`pip install 'ambit-semantics[nltk]'`; the light core does not need NLTK).

A pipeline changes one line, `nltk.Prover9(10)` → `ambit.nltk.Prover(10)`:

    from nltk.sem import Expression
    import ambit.nltk

    read = Expression.fromstring
    prover = ambit.nltk.Prover(10)
    prover.prove(read("mortal(socrates)"), [read("man(socrates)"), read("all x.(man(x) -> mortal(x))")])  # True

- `Prover` (an `nltk.inference.api.Prover`, a subclass of `nltk.Prover9`) and `ProverCommand`
  (NLTK's Prover9Command with it): `prove`, `proof()`, assumptions as NLTK's (provers.py);
- `ModelBuilder` (an `nltk.inference.api.ModelBuilder`, a subclass of `nltk.Mace`) and
  `ModelBuilderCommand` (NLTK's MaceCommand with it): `build_model`, `model(format)` in Mace4's
  formats and `valuation`, an `nltk.sem.Valuation` (models.py);
- `from_expression`: an NLTK `Expression` as ambit's AST, read directly, as the nltk dialect
  reads `str(expression)` (expressions.py);
- `patched()`: NLTK's own Prover9 and Mace replaced by these inside a `with` block, for NLTK code
  that makes its own (`Expression.equiv`, `DiscourseTester`, the nonmonotonic provers) (patch.py).

Where the answers differ from Prover9's and Mace4's: docs/logic.md, "ambit as NLTK's prover".
"""

from __future__ import annotations

try:
    import nltk  # noqa: F401  (NLTK itself: the classes below extend its own)
except ModuleNotFoundError as _e:  # pragma: no cover - the extra is missing
    if _e.name != "nltk":
        raise
    from ambit._extras import install_line

    raise ModuleNotFoundError(f"ambit.nltk needs 'nltk', which is not installed: {install_line('nltk')}",
                              name="nltk") from None

from ambit.nltk.expressions import formula_of, from_expression, read_expression
from ambit.nltk.models import ModelBuilder, ModelBuilderCommand
from ambit.nltk.patch import patched
from ambit.nltk.provers import LimitExceeded, ProblemError, Prover, ProverCommand

__all__ = ["LimitExceeded", "ModelBuilder", "ModelBuilderCommand", "ProblemError", "Prover", "ProverCommand",
           "formula_of", "from_expression", "patched", "read_expression"]
