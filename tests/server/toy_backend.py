"""A toy model backend, written the way docs/development.md ("Adding a backend") says a new one is:
one module with a class that has `server.model.ModelBackend`'s members and declares what more it
can do in `capabilities`, a loader, and one `register(...)` line. Its model spec is `toy:<WORD>`.

Every answer is a pure function of the request, so a test can state it: a candidate's token
probability is 1 / (1 + its length in characters); a decode gives `FORMULA` whatever the prompt;
a reply is `<WORD>: <the last turn>`. Tokens are words, and the context is `CONTEXT` words.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ambit.server.backends import BackendEntry, register
from ambit.server.hypothesis import Hypothesis
from ambit.server.model import Capability, ContextTooLong, DecodeParams, DecodeStopped, GenerateParams
from ambit.server.values import CandidateScore, Generation, renormalise

FORMULA = "exists x . dog(x)"
CONTEXT = 512  # words


class ToyBackend:
    """Answers from arithmetic on the text; `closed` turns true when the server closes it."""

    capabilities = frozenset({Capability.CHAT_TEMPLATE, Capability.CHAT_PROMPT, Capability.TOKENS})

    def __init__(self, word: str) -> None:
        self.word = word
        self.closed = False

    def info(self) -> dict:
        return {"model_id": f"toy:{self.word}", "device": "toy", "dtype": "", "vocab_size": 0, "kind": "causal"}

    def score_batch(self, items: list[tuple[str, list[str]]], end_marker: bool = False) -> list[list[Any]]:
        return [self._scores(candidates) for _, candidates in items]

    def _scores(self, candidates: list[str]) -> list[CandidateScore]:
        out = []
        for c in candidates:
            p = 1.0 / (1 + len(c))
            out.append(CandidateScore(text=c, tokens=[c], token_ids=[], token_probs=[p], min_prob=p,
                                      min_prob_renorm=p, sum_logprob=math.log(p), mean_logprob=math.log(p),
                                      token_logprobs=[math.log(p)]))
        renormalise(out)
        return out

    def decode(self, prompt: str, fmt: str, params: DecodeParams, grammar: str | None,
               should_stop: Callable[[], bool]) -> list[Any]:
        if should_stop():
            raise DecodeStopped("toy decode stopped")
        return [Hypothesis(text=FORMULA, logprob=-1.0, token_probs=[math.exp(-1.0)], tokens=[FORMULA],
                           min_prob=math.exp(-1.0), finished=True, score=-1.0)]

    def generate(self, turns: list[tuple[str, str]], params: GenerateParams, should_stop: Callable[[], bool]) -> Any:
        prompt = self.chat_prompt(turns) if params.use_chat_template else turns[-1][1]
        text = f"{self.word}: {turns[-1][1]}"
        return Generation(text, prompt, params.use_chat_template, self.count_tokens(prompt),
                          self.count_tokens(text), "stop", 0.0)

    def chat_prompt(self, turns: list[tuple[str, str]]) -> str:
        return "".join(f"<{role}>{content}</{role}>" for role, content in turns) + "<assistant>"

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def check_context(self, text: str, extra_tokens: int) -> None:
        if self.count_tokens(text) + extra_tokens > CONTEXT:
            raise ContextTooLong(self.count_tokens(text), extra_tokens, CONTEXT)

    def close(self) -> None:
        self.closed = True


LOADED: list[ToyBackend] = []  # every backend loaded, so a test can see it closed


def load(spec: str, device: str | None = None, dtype: str | None = None, remote: Any = None) -> ToyBackend:
    """The registry's loader: `toy:<WORD>`."""
    LOADED.append(ToyBackend(spec.removeprefix("toy:")))
    return LOADED[-1]


ENTRY = register(BackendEntry("toy", load, scheme="toy", summary="toy:<WORD>, the tests' toy backend"))
