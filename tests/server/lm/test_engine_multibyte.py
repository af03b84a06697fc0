"""A character that byte-level BPE splits across tokens stays whole in a hypothesis' text and
passes the canonical-path check: the text is the path's bytes decoded as one sequence, not token
by token. Checked on the default model's own tokenizer with FOLIO's symbols, which it splits
(∀ is two tokens, ⊕ three; ¬ and → are one)."""

from __future__ import annotations

import pytest

from ambit.server.lm import Decoder
from ambit.server.lm.grammar import GrammarConstraint

SYMBOLS = ("∀", "∃", "¬", "→", "↔", "∧", "∨", "⊕", "≠")
FORMULA = "∀x ∃y (¬A(x) → B(y) ∧ C(x) ∨ D(y) ⊕ E(x) ↔ x ≠ y)"
CHOICE = 'start: SYM "(a)"\nSYM: ' + " | ".join(f'"{s}"' for s in SYMBOLS) + "\n"


def test_the_default_tokenizer_splits_folio_symbols(smol_lm):
    pieces = {s: smol_lm.tokenizer.backend_tokenizer.encode(s, add_special_tokens=False).ids for s in SYMBOLS}
    assert len(pieces["∀"]) == 2 and len(pieces["⊕"]) == 3, pieces  # what the test is about


def test_canonical_path_of_a_folio_formula_is_kept_whole(smol_lm):
    dec = Decoder(smol_lm)
    c = GrammarConstraint(dec.tables, f"start: {FORMULA!r}".replace("'", '"'), "", None, canonical=True)
    ids = dec.tables.canonical(FORMULA)
    parse = c.start()
    for k, t in enumerate(ids):
        parse = parse.append(t)
        assert parse is not None, f"the canonical path was cut at token {k} ({smol_lm.tokenizer.convert_ids_to_tokens([t])})"
    assert parse.can_end() and parse.text == FORMULA


@pytest.mark.parametrize("search", ["beam", "sample"])
def test_decoded_symbols_survive_in_the_hypothesis_text(smol_lm, search):
    dec = Decoder(smol_lm)
    if search == "beam":
        # a path that ends inside a character is checked once a token completes it, so for a step a
        # non-canonical one can hold a beam: a few more beams than answers
        hyps = dec.beam_search("Symbol:", fmt="folio", beam=2 * len(SYMBOLS), max_tokens=8, grammar=CHOICE).hypotheses
        assert sorted(h.text for h in hyps) == sorted(f"{s}(a)" for s in SYMBOLS)  # every symbol, each once
    else:
        hyps = dec.sample("Symbol:", n=12, fmt="folio", max_tokens=8, grammar=CHOICE, seed=1).hypotheses
        assert len(hyps) == 12
    for h in hyps:
        assert h.finished and "\ufffd" not in h.text and h.text[:-3] in SYMBOLS and h.text.endswith("(a)")
        if search == "beam":  # one path per text: the tokenizer's own
            assert tuple(h.token_ids) == dec.tables.canonical(" " + h.text)
