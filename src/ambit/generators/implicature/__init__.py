"""Conversational-implicature ranking pairs (Ruis et al. 2023, do-pigs-fly) as JSONL records;
the command line is `ambit generate implicature` (`cli.py`)."""

from ambit.generators.implicature.data import Example, ImplicatureDataError, label_of, load_examples
from ambit.generators.implicature.prompts import KS, build_records, draw_demos, prompt_prefix
from ambit.generators.implicature.templates import Template, load_templates

__all__ = ["KS", "Example", "ImplicatureDataError", "Template", "build_records", "draw_demos",
           "label_of", "load_examples", "load_templates", "prompt_prefix"]
