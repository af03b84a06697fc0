"""Translating a story with a model under the decode grammar, through the `ModelBackend`
interface the server's servicer uses (`decode(prompt, fmt, params, grammar, should_stop)`), so
the embedded engine and any backend that constrains decoding by a Lark grammar both serve.

Each sample is one pass over the story, sentence by sentence, with the sample's own earlier
translations in the prompt. Sample 0 of a single-sample run is beam search (`beam` wide);
with several samples each sentence is drawn at `temperature`, seeded by (seed, story, sample,
sentence), as LINC draws its samples for majority voting.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ambit.client.eval import folio_grammar as G
from ambit.client.eval import folio_prompt as P

FMT = "folio"  # the decoder's variable-scope check has nothing to do on this grammar (no "( ")


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
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:4], "little")


def params_for(d: Decoding, story_id: str, sample: int, sentence: int):
    """The backend's DecodeParams for one sentence of one sample."""
    from ambit.server.model import DecodeParams

    if d.samples == 1:
        return DecodeParams("beam", d.beam, 1.0, 1.0, d.max_tokens, d.seed)
    return DecodeParams("sample", 1, d.temperature, d.top_p, d.max_tokens,
                        _seed(d.seed, story_id, sample, sentence))


def translate(backend: Any, head: str, story_id: str, sentences: Sequence[str], d: Decoding,
              should_stop: Callable[[], bool] = lambda: False) -> list[list[dict]]:
    """`d.samples` translations of `sentences`: per sample, per sentence, `raw` (the decoder's
    output, stripped), `text` (the same in FOLIO's symbols; `raw` itself when it is not in the
    grammar), `finished` (the model ended it; an unfinished output ran out of tokens) and
    `logprob`. Later sentences see the sample's earlier `raw` translations."""
    grammar = G.grammar_text()
    out = []
    for k in range(d.samples):
        done: list[tuple[str, str]] = []
        sample = []
        for i, sentence in enumerate(sentences):
            prompt = P.sentence_prompt(head, done, sentence)
            hyps = backend.decode(prompt, FMT, params_for(d, story_id, k, i), grammar, should_stop)
            h = hyps[0] if hyps else None
            raw = h.text.strip() if h is not None else ""
            sample.append({"raw": raw, "text": G.to_folio(raw) if G.in_grammar(raw) else raw,
                           "finished": bool(h is not None and getattr(h, "finished", True)),
                           "logprob": float(h.logprob) if h is not None else None})
            done.append((sentence, raw))
        out.append(sample)
    return out
