"""What a decode returns: ranked hypotheses and the call's own statistics (no torch: shared with the
remote backends). Each call owns its `StatsClock`, so concurrent calls never mix their figures."""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, ContextManager, Iterator


class DecodeCancelled(RuntimeError):
    """The caller's `should_stop()` returned True or its deadline passed."""


@dataclass
class Hypothesis:
    text: str
    logprob: float  # sum of the LF tokens' log-probs
    token_probs: list[float]
    tokens: list[str]
    min_prob: float
    finished: bool
    end_logprob: float | None = None
    score: float = 0.0  # ranking key: logprob + end_logprob (logprob when unfinished)
    token_ids: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class DecodeStats:
    """Figures of one decode call: steps, rows advanced, seconds in the model and the constraint."""

    steps: int
    tokens: int
    model_s: float
    grammar_s: float
    full_masks: int
    total_s: float


@dataclass(frozen=True)
class Decoded:
    """The hypotheses of one call, best first, and that call's statistics."""

    hypotheses: list[Hypothesis]
    stats: DecodeStats


class StatsClock:
    """Per-call counters; `model()` and `grammar()` time the block they wrap."""

    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.steps = self.tokens = self.full_masks = 0
        self.model_s = self.grammar_s = 0.0

    @contextmanager
    def _timed(self, attr: str) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            setattr(self, attr, getattr(self, attr) + time.perf_counter() - t)

    def model(self) -> ContextManager[None]:
        return self._timed("model_s")

    def grammar(self) -> ContextManager[None]:
        return self._timed("grammar_s")

    def freeze(self) -> DecodeStats:
        return DecodeStats(self.steps, self.tokens, self.model_s, self.grammar_s, self.full_masks,
                           time.perf_counter() - self.t0)


@dataclass(frozen=True)
class Path:
    """A decoded prefix: ids, log-probs and their sum, bytes (lead included), constraint state."""

    ids: tuple[int, ...]
    lps: tuple[float, ...]
    logprob: float
    data: bytes
    parse: object

    @property
    def text(self) -> str:
        """The prefix's bytes decoded as one: BPE may split ∀ (E2 88 80) over several tokens."""
        return self.data.decode("utf-8", errors="replace")

    def extend(self, token: int, lp: float, logprob: float, piece: bytes, parse: object) -> Path:
        """The child after `token` (bytes `piece`, log-prob `lp`, new sum `logprob`)."""
        return Path(self.ids + (token,), self.lps + (lp,), logprob, self.data + piece, parse)


def hypothesis(path: Path, lead: str, tokens: list[str], end_lp: float | None) -> Hypothesis:
    """The hypothesis of `path` (`tokens`: the ids' token strings); finished when `end_lp` is given."""
    text = path.text[len(lead):] if path.text.startswith(lead) else path.text
    probs = [math.exp(x) for x in path.lps]
    return Hypothesis(text=text, logprob=path.logprob, token_probs=probs, tokens=tokens,
                      min_prob=min(probs) if probs else 1.0, finished=end_lp is not None,
                      end_logprob=end_lp, score=path.logprob + (end_lp or 0.0),
                      token_ids=list(path.ids))


def check_cancel(should_stop: Callable[[], bool] | None, deadline: float | None) -> None:
    if should_stop is not None and should_stop():
        raise DecodeCancelled("decode cancelled by the caller")
    if deadline is not None and time.monotonic() > deadline:
        raise DecodeCancelled("decode deadline passed")
