"""Readings explained: an unambiguous controlled-English paraphrase of each reading of an
utterance, the least situations that tell readings apart, and a clarification question."""

from ambit.logic.explain.explain import QUANTIFIERS, Explanation, Question, Reading, Situation, explain_readings
from ambit.logic.explain.read import ParaphraseError, read
from ambit.logic.explain.restricted import Every, Exists, restrict
from ambit.logic.explain.situations import Scene, find_scene
from ambit.logic.explain.verbalise import verbalise
from ambit.logic.explain.wordforms import WordForms

__all__ = [
    "QUANTIFIERS", "Explanation", "Question", "Reading", "Situation", "explain_readings", "ParaphraseError",
    "read", "Every", "Exists", "restrict", "Scene", "find_scene", "verbalise", "WordForms",
]
