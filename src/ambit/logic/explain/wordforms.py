"""Word forms for paraphrases: LF symbol -> English surface (`picked_up` -> "picked up"); a symbol
without an entry is written with its underscores as spaces. The reader of the controlled English
gets the same value, which is how a multi-word surface is read back as one symbol.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ambit.logic.syntax.ast import Atom, Formula, subformulas

# a surface must be lowercase words separated by single spaces, none of them a keyword of the
# controlled English (logic/grammars/ace.lark), so that the reader can find where it ends
_WORD = re.compile(r"[a-z][a-z0-9]*")
KEYWORDS = frozenset("a an and by either every for is means of or relation something stands "
                     "such that the there thing to both in".split())


@dataclass(frozen=True)
class WordForms:
    """A typed lexicon: `forms[symbol]` is the surface of an LF predicate symbol."""

    forms: Mapping[str, str] = field(default_factory=dict)

    def surface(self, symbol: str) -> str:
        """The surface of `symbol`, or the bare symbol where the reader could not delimit it."""
        text = self.forms.get(symbol)
        text = symbol.replace("_", " ") if text is None else text
        return text if readable(text) else symbol

    def covering(self, formulas: Iterable[Formula]) -> "WordForms":
        """This lexicon plus an entry per predicate of `formulas`, one symbol per surface."""
        forms = dict(self.forms)
        symbols = sorted({n.pred for f in formulas for n in subformulas(f) if isinstance(n, Atom)})
        taken = {self.surface(s): s for s in symbols if s in forms}
        for s in symbols:
            text = self.surface(s)
            if taken.setdefault(text, s) != s:
                text = s
                taken[text] = s
            forms[s] = text
        return WordForms(forms)

    def symbols(self) -> dict[str, str]:
        """The inverse map, surface -> symbol, of the entries whose surface is readable."""
        return {self.surface(s): s for s in self.forms}


def readable(text: str) -> bool:
    """Whether the reader can take `text` back as one noun or verb."""
    words = text.split(" ")
    if len(words) == 1:
        return re.fullmatch(r"[a-z][a-z0-9_]*", text) is not None and text not in KEYWORDS
    # a phrase is one token of the reader, so keywords may occur inside it but not first
    return all(_WORD.fullmatch(w) for w in words) and words[0] not in KEYWORDS
