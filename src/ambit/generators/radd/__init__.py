"""RADD (Reasoning about Ambiguous Definite Descriptions): load, render and generate instances.
The instance types, phrasings and prompt parser live in the logic layer (`logic/radd/`), which
verifies instances; they are re-exported here.
"""

from ambit.logic.radd.instance import (MonthDate, Option, PropertyFact, RaddInstance,
                                       RaddParseError, RelationSpan)
from ambit.generators.radd.loader import load_jsonl, parse_prompt, parse_row
from ambit.generators.radd.render import render_messages, render_prompt

__all__ = ["MonthDate", "Option", "PropertyFact", "RaddInstance", "RaddParseError", "RelationSpan",
           "load_jsonl", "parse_prompt", "parse_row", "render_messages", "render_prompt"]
