"""Zero-shot ingredients, as AmP's appendix A.2 builds them: the unambiguous sentences an item's
template declares, filled with the item's own words. They hold every piece either reading is made
of, and no example of the ambiguous construction (`check_ingredients`)."""

from __future__ import annotations

import random
from functools import cache

from ambit.logic.syntax.dialect import FOL
from ambit import logic

from ambit.generators.amp.generate import realise
from ambit.generators.amp.spec import SpecError, Template, Word, lexicon


@cache
def _words_by_lf(cls: str) -> dict[str, Word]:
    """A lexicon class's words by LF symbol (`picked_up` -> "picked up"), to read bindings back."""
    return {w.lf: w for w in lexicon().words(cls)}


def item_ingredients(template: Template, bindings: dict[str, str], rng: random.Random) -> list[tuple[str, str]]:
    """(surface, FOL LF) of each ingredient of an item made from `template` with `bindings`; a slot
    the test sentence lacks gets one unused word of its class, chosen with `rng`."""
    lex = lexicon()
    if not template.ingredients:
        raise SpecError(f"template {template.surface!r} declares no zero-shot ingredients")
    filling = {s: _words_by_lf(template.slots[s])[lf] for s, lf in bindings.items()}
    used = {w.surface for w in filling.values()}
    out = []
    for ing in template.ingredients:
        for slot, cls in ing.slots.items():
            if slot not in filling:
                if not (choices := [w for w in lex.words(cls) if w.surface not in used]):
                    raise SpecError(f"ingredient {ing.surface!r}: no word of {cls!r} left for {slot!r}")
                filling[slot] = rng.choice(choices)
                used.add(filling[slot].surface)
        words = {s: filling[s] for s in ing.slots}
        lf = ing.lfs[0].format(**{s: w.lf for s, w in words.items()})
        out.append((realise(ing, words, lex), lf))
    return out


def check_ingredients(demos: list[tuple[str, str]], readings: tuple[str, str],
                      utterances: frozenset[str]) -> None:
    """SpecError unless each ingredient parses and is neither an utterance nor a reading."""
    own = {logic.canonical_form(lf) for lf in readings}
    for surface, lf in demos:
        if surface in utterances:
            raise SpecError(f"ingredient {surface!r} is an example of the ambiguous construction")
        if logic.canonical_form(logic.parse(lf, FOL)) in own:
            raise SpecError(f"ingredient {surface!r} has a reading of the test sentence: {lf}")
