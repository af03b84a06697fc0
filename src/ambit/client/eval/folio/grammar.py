"""The decode grammar of FOLIO translations, as the folio suite uses it; it lives in
`ambit.logic.decode.folio` because the server decodes under the same grammar."""

from __future__ import annotations

from ambit.logic.decode.folio import (  # noqa: F401  (the folio suite's names for them)
    FOLIO, GRAMMAR_FILE, as_folio, check, grammar_text, in_grammar, render, to_folio,
)
