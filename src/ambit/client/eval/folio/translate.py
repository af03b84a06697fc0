"""Translating a story with a model under the decode grammar, through the server: one
ParseDistribution call per sentence with the `folio` format, so every kind of server serves.
Each sample is one pass over the story with its own earlier translations in the prompt.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ambit.logic.syntax.dialect import FOLIO
from ambit.client.eval.folio import grammar as G
from ambit.client.eval.folio import prompt as P

FMT = FOLIO  # ParseDistribution's format: decoded under the folio decode grammar


@dataclass(frozen=True)
class Decoding:
    """How translations are drawn."""

    samples: int = 1
    beam: int = 1
    temperature: float = 0.7
    top_p: float = 1.0
    max_tokens: int = 160
    seed: int = 0


def _seed(*parts: Any) -> int:
    """A 32-bit seed from ``parts``, stable across runs."""
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:4], "little")


@dataclass(frozen=True)
class Request:
    """The ParseDistribution options of one sentence of one sample."""

    strategy: str  # beam | sample
    k: int
    temperature: float
    max_tokens: int
    seed: int


def request_for(d: Decoding, story_id: str, sample: int, sentence: int) -> Request:
    """Beam search for a single sample; else a sample seeded by (seed, story, sample, sentence)."""
    if d.samples == 1:
        return Request("beam", d.beam, 0.0, d.max_tokens, d.seed)
    return Request("sample", 1, d.temperature, d.max_tokens, _seed(d.seed, story_id, sample, sentence))


def translate(client: Any, head: str, story_id: str, sentences: Sequence[str], d: Decoding,
              timeout: float | None = None) -> tuple[list[list[dict]], str]:
    """(`d.samples` translations of `sentences`, the server's model id). Per sentence: `raw` (the
    decoder's output), `text` (in FOLIO's symbols; `raw` when not in the grammar), `finished`
    (False: it ran out of tokens) and `logprob`."""
    out, model_id = [], ""
    for k in range(d.samples):
        done: list[tuple[str, str]] = []
        sample = []
        for i, sentence in enumerate(sentences):
            prompt = P.sentence_prompt(head, done, sentence)
            r = request_for(d, story_id, k, i)
            dist = client.parse_distribution(sentence, prompt, fmt=FMT, k=r.k, strategy=r.strategy,
                                             max_tokens=r.max_tokens, temperature=r.temperature, seed=r.seed,
                                             timeout=timeout)
            model_id = dist.model_id or model_id
            c = dist.candidates[0] if dist.candidates else None
            raw = c.text.strip() if c is not None else ""
            sample.append({"raw": raw, "text": G.as_folio(raw),
                           "finished": bool(c is not None and c.parse_status != "UNFINISHED"),
                           "logprob": float(c.logprob) if c is not None else None})
            done.append((sentence, raw))
        out.append(sample)
    return out, model_id
