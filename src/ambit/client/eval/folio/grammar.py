"""The decode grammar of FOLIO translations, as the folio suite uses it: the grammar text, the
Lark check, the renderer of demonstrations and `to_folio` (the respelling in FOLIO's symbols).
They live in `ambit.logic.decode.folio`, beside the grammar file, because the server decodes
under the same grammar (ParseDistribution with the `folio` format)."""

from __future__ import annotations

from ambit.logic.decode.folio import (  # noqa: F401  (the folio suite's names for them)
    FOLIO, GRAMMAR_FILE, as_folio, check, grammar_text, in_grammar, render, to_folio,
)
