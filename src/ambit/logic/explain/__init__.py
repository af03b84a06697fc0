"""Readings explained (issue 13): an unambiguous controlled-English paraphrase of each reading of
an utterance, the least situations that tell readings apart, and a clarification question.

`verbalise` / `read`: LF <-> controlled English (`logic/grammars/ace.lark`); `restrict`: AmP's
universals read as restricted quantification; `find_scene`: least distinguishing scene in Prolog
(`logic/prolog/situations.pl`); `explain_readings`: all of it as one JSON-able value.
"""

from .explain import QUANTIFIERS, Explanation, Question, Reading, Situation, explain_readings
from .read import ParaphraseError, read
from .restricted import Every, Exists, restrict
from .situations import Scene, find_scene
from .verbalise import verbalise
from .wordforms import WordForms

__all__ = [
    "QUANTIFIERS", "Explanation", "Question", "Reading", "Situation", "explain_readings", "ParaphraseError",
    "read", "Every", "Exists", "restrict", "Scene", "find_scene", "verbalise", "WordForms",
]
