"""ambit where NLTK calls a prover (the `nltk` extra): `nltk.Prover9(10)` → `ambit.nltk.Prover(10)`,
`nltk.Mace` → `ModelBuilder`, with their commands; `from_expression` reads an NLTK `Expression`
as ambit's AST; `patched()` swaps NLTK's own classes inside a `with` block. Where the answers
differ from Prover9's and Mace4's: docs/logic.md, "ambit as NLTK's prover"."""

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
