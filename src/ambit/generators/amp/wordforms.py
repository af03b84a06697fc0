"""AmP's word forms for paraphrases (`logic.explain`): LF symbol -> surface, from
`lexicon.yaml` (`picked_up` -> "picked up", `listened` -> "listened to"), plus the past tense of
the possession predicate `have` that the pp templates use ("a boy that had a telescope")."""

from __future__ import annotations

from functools import cache

from ambit.logic.explain.wordforms import WordForms

from ambit.generators.amp.spec import lexicon

# predicates the templates write literally (not lexicon words), in the lexicon's past tense
TEMPLATE_WORDS = {"have": "had"}


@cache
def amp_wordforms() -> WordForms:
    """Every lexicon word whose LF symbol differs from its surface, plus `TEMPLATE_WORDS`."""
    forms = dict(TEMPLATE_WORDS)
    for words in lexicon().classes.values():
        for w in words:
            if w.lf != w.surface:
                forms[w.lf] = w.surface
            if w.singular:
                forms[w.lf] = w.singular  # a paraphrase says "a pair of binoculars"
    return WordForms(forms)
