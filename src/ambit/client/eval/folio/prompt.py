"""Few-shot prompts for NL→FOL translation: k seeded demonstration stories (never the test
story), then the test story sentence by sentence, each followed by "FOL:" and the model's
translation, so later sentences see the names it chose (the prover needs them shared).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ambit.logic.syntax.dialect import FOLIO
from ambit import logic
from ambit.client.eval.folio import grammar as G
from ambit.client.eval.folio.data import Story

INSTRUCTION = ("Translate each sentence into first-order logic. Predicates are capitalised words, "
               "constants lower-case words; write all, exists, - (not), & (and), | (or), xor, -> (implies), "
               "<-> (if and only if), =, !=.")


@dataclass(frozen=True)
class Demo:
    """A demonstration: its story's id and (sentence, formula) pairs in the grammar's style."""

    id: str
    story_id: str
    pairs: tuple[tuple[str, str], ...]


def as_demo(story: Story) -> Demo | None:
    """The story as a demonstration; None if a formula does not parse or fit the decode grammar."""
    pairs = [*zip(story.premises, story.premises_fol)] if story.paired else []
    if story.conclusion_fol is not None:
        pairs.append((story.conclusion, story.conclusion_fol))
    if not pairs:
        return None
    out = []
    for sentence, fol in pairs:
        try:
            out.append((sentence, G.render(logic.parse(fol, FOLIO))))
        except (logic.LFParseError, ValueError):
            return None
    return Demo(story.id, story.story_id, tuple(out))


def demo_pool(train: Sequence[Story]) -> list[Demo]:
    """One demonstration per story id (its first usable example), in file order."""
    seen: set[str] = set()
    pool = []
    for s in train:
        if s.story_id in seen:
            continue
        if (d := as_demo(s)) is not None:
            seen.add(s.story_id)
            pool.append(d)
    return pool


def pick_demos(pool: Sequence[Demo], test: Story, k: int, seed: int) -> list[Demo]:
    """k demonstrations for `test`, never its own story, drawn by `random.Random(seed, test id)`."""
    candidates = [d for d in pool if d.story_id != test.story_id]
    if k > len(candidates):
        raise ValueError(f"--shots {k}: only {len(candidates)} usable demonstration stories")
    return random.Random(f"folio:{seed}:{test.id}").sample(candidates, k)


def header(demos: Sequence[Demo]) -> str:
    """The instruction and the demonstrations, each story as Sentence/FOL lines."""
    blocks = ["\n".join(f"Sentence: {s}\nFOL: {f}" for s, f in d.pairs) for d in demos]
    return "\n\n".join([INSTRUCTION, *blocks]) + "\n\n"


def sentence_prompt(head: str, done: Sequence[tuple[str, str]], sentence: str) -> str:
    """The prompt for `sentence` after the story's earlier (sentence, translation) pairs."""
    earlier = "".join(f"Sentence: {s}\nFOL: {t}\n" for s, t in done)
    return f"{head}{earlier}Sentence: {sentence}\nFOL:"
