"""Few-shot prompts for NL→FOL translation: k demonstration stories from a train split, drawn
with a seed, never the test story, each shown as the decode grammar writes its formulas.

A prompt is a header (instruction and demonstrations), then the test story sentence by
sentence: each sentence is followed by "FOL:" and the translation the model wrote for it,
so later sentences see the names it chose earlier (a story's formulas must share names for
the prover to connect them). The model continues after the last "FOL:".
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
    """The story as a demonstration, or None when one of its formulas does not parse or does
    not fit the decode grammar (it would show the model something it cannot write)."""
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
        d = as_demo(s)
        if d is not None:
            seen.add(s.story_id)
            pool.append(d)
    return pool


def pick_demos(pool: Sequence[Demo], test: Story, k: int, seed: int) -> list[Demo]:
    """k demonstrations for `test`: never its own story, drawn by `random.Random(seed, test id)`,
    so a rerun draws the same ones and each test story its own."""
    candidates = [d for d in pool if d.story_id != test.story_id]
    if k > len(candidates):
        raise ValueError(f"--shots {k}: only {len(candidates)} usable demonstration stories")
    return random.Random(f"folio:{seed}:{test.id}").sample(candidates, k)


def header(demos: Sequence[Demo]) -> str:
    """The instruction and the demonstrations, each story as Sentence/FOL lines."""
    blocks = [INSTRUCTION]
    for d in demos:
        blocks.append("\n".join(f"Sentence: {s}\nFOL: {f}" for s, f in d.pairs))
    return "\n\n".join(blocks) + "\n\n"


def sentence_prompt(head: str, done: Sequence[tuple[str, str]], sentence: str) -> str:
    """The prompt for `sentence` after the story's earlier (sentence, translation) pairs."""
    lines = [f"Sentence: {s}\nFOL: {t}\n" for s, t in done]
    return head + "".join(lines) + f"Sentence: {sentence}\nFOL:"
