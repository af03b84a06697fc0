"""Conversational-implicature ranking pairs (Ruis et al. 2023, do-pigs-fly) as JSONL records.

`load_examples(csv)`, `load_templates(txt)`, `build_records(data_dir, ...)`; the command
line is `python -m generators implicature` (see `cli.py`).
"""

from generators.implicature.data import Example, ImplicatureDataError, label_of, load_examples
from generators.implicature.prompts import KS, build_records, draw_demos, prompt_prefix
from generators.implicature.templates import Template, load_templates

__all__ = [
    "KS",
    "Example",
    "ImplicatureDataError",
    "Template",
    "build_records",
    "draw_demos",
    "label_of",
    "load_examples",
    "load_templates",
    "prompt_prefix",
]
