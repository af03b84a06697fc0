"""Coherent/incoherent prompt pairs for do-pigs-fly's implicature RankingTask. As in the original,
one `numpy.random.default_rng(seed)` per k draws the demos in file order, so the first n
examples' draws do not depend on how many follow (`limit` keeps them)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from ambit.generators.implicature.data import Example, load_examples
from ambit.generators.implicature.templates import Template, load_templates

KS = (0, 1, 5, 10, 15, 30)  # the paper's k-shot settings
SPLITS = ("test", "dev")
TEMPLATE_FILE = "prompt_templates.txt"
OTHER = {"yes": "no", "no": "yes"}


def split_file(data_dir: str | Path, split: str) -> Path:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    return Path(data_dir) / f"{split}_conversational_implicatures.csv"


def draw_demos(n: int, pool: int, k: int, seed: int, exclude_self: bool = False) -> list[list[int]]:
    """For each of n examples in order, k distinct indices into a pool of dev examples;
    `exclude_self` (the examples are dev itself) keeps example i out of its own demos."""
    size = pool - 1 if exclude_self else pool
    if not 0 <= k <= size:
        raise ValueError(f"k={k} demos need 0 <= k <= {size} (dev examples available)")
    if k == 0:
        return [[] for _ in range(n)]
    rng = np.random.default_rng(seed)
    draws = []
    for i in range(n):
        picked = [int(j) for j in rng.choice(size, k, replace=False)]
        draws.append([j + 1 if exclude_self and j >= i else j for j in picked])
    return draws


def prompt_prefix(template: Template, example: Example, demos: Sequence[Example]) -> str:
    """Everything before the space and the final yes/no word of the test text."""
    parts = []
    if demos:
        if not template.prompt_instruction_text:
            raise ValueError(f"template {template.index} has no prompt_instruction_text for demos")
        parts += [template.prompt_instruction_text,
                  "\n\n".join(template.fill(d.utterance, d.response, d.label) for d in demos)]
    if template.example_instruction_text:
        parts.append(template.example_instruction_text)
    parts.append(template.stem(example.utterance, example.response))
    return "\n\n".join(parts)


def build_records(data_dir: str | Path, split: str = "test", ks: Iterable[int] = (0,),
                  templates: Iterable[int] | None = None, seed: int = 0, limit: int | None = None,
                  template_file: str = TEMPLATE_FILE) -> list[dict]:
    """One record per (k, example, template), in that order; `templates` are 1-based (None: all)."""
    data_dir = Path(data_dir)
    examples = load_examples(split_file(data_dir, split))
    dev = examples if split == "dev" else load_examples(split_file(data_dir, "dev"))
    all_templates = load_templates(data_dir / template_file)
    if templates is None:
        chosen = all_templates
    else:
        chosen = []
        for index in templates:
            if not 1 <= index <= len(all_templates):
                raise ValueError(f"template {index} not in 1..{len(all_templates)}")
            chosen.append(all_templates[index - 1])
    if limit is not None:
        if limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        examples = examples[:limit]

    records = []
    for k in ks:
        draws = draw_demos(len(examples), len(dev), k, seed, exclude_self=split == "dev")
        for example, demo_rows in zip(examples, draws):
            demos = [dev[j] for j in demo_rows]
            for template in chosen:
                prefix = prompt_prefix(template, example, demos)
                coherent_word, incoherent_word = f" {example.label}", f" {OTHER[example.label]}"
                example_id = f"{split}-{example.row:03d}"
                stem = template.stem(example.utterance, example.response)
                records.append({
                    "id": f"{example_id}/t{template.index}/k{k}", "example_id": example_id,
                    "split": split, "row": example.row, "template": template.index, "k": k,
                    "seed": seed, "demo_rows": demo_rows, "label": example.label,
                    "utterance": example.utterance, "response": example.response, "prefix": prefix,
                    "coherent_word": coherent_word, "incoherent_word": incoherent_word,
                    "coherent": prefix + coherent_word, "incoherent": prefix + incoherent_word,
                    # masked models: the slot in place of the bare yes/no word (phrase_to_put_mask)
                    "masked_prompt": prefix[: len(prefix) - len(stem)]
                    + template.masked(example.utterance, example.response),
                })
    return records
