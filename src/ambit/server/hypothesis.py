"""What a decode returns: ranked hypotheses and the call's own statistics.

Shared by the engine (`ambit.server.lm`) and the remote backends, so it imports no torch.

Statistics are counted in a `StatsClock` owned by one call and returned frozen with its
hypotheses (`Decoded`), so concurrent calls on one `Decoder` never mix their figures.
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator


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
    """Figures of one decode call: search steps, rows advanced through the model, time in the
    model and in the constraint (masks, checks), full masks computed, and the call's total."""

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
    def model(self) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            self.model_s += time.perf_counter() - t

    @contextmanager
    def grammar(self) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            self.grammar_s += time.perf_counter() - t

    def freeze(self) -> DecodeStats:
        return DecodeStats(self.steps, self.tokens, self.model_s, self.grammar_s, self.full_masks,
                           time.perf_counter() - self.t0)


@dataclass(frozen=True)
class Path:
    """A decoded prefix: token ids, their log-probs, their sum, the bytes they stand for (lead
    included), and the constraint's state after it."""

    ids: tuple[int, ...]
    lps: tuple[float, ...]
    logprob: float
    data: bytes
    parse: object

    @property
    def text(self) -> str:
        """The prefix's text, decoded as one byte sequence: byte-level BPE splits a character such
        as ∀ (E2 88 80) over two or three tokens, which decoded one by one would each be lost to
        U+FFFD. Only an incomplete last character shows as U+FFFD."""
        return self.data.decode("utf-8", errors="replace")

    def extend(self, token: int, lp: float, logprob: float, piece: bytes, parse: object) -> Path:
        """The child after `token` (its bytes `piece`, log-prob `lp`, new sum `logprob` as the
        caller computed it)."""
        return Path(self.ids + (token,), self.lps + (lp,), logprob, self.data + piece, parse)


def hypothesis(path: Path, lead: str, tokens: list[str], end_lp: float | None) -> Hypothesis:
    """The hypothesis of `path` (`tokens`: the ids' token strings); finished when `end_lp` is given."""
    text = path.text[len(lead):] if path.text.startswith(lead) else path.text
    probs = [math.exp(x) for x in path.lps]
    return Hypothesis(
        text=text,
        logprob=path.logprob,
        token_probs=probs,
        tokens=tokens,
        min_prob=min(probs) if probs else 1.0,
        finished=end_lp is not None,
        end_logprob=end_lp,
        score=path.logprob + (end_lp or 0.0),
        token_ids=list(path.ids),
    )


def check_cancel(should_stop: Callable[[], bool] | None, deadline: float | None) -> None:
    if should_stop is not None and should_stop():
        raise DecodeCancelled("decode cancelled by the caller")
    if deadline is not None and time.monotonic() > deadline:
        raise DecodeCancelled("decode deadline passed")
