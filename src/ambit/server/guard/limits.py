"""Request limits, checked by the service core and reported by GetModelInfo. AmP prompts are ~3k
characters and RADD texts ~2k: 64k leaves room without one request holding the model for minutes;
256 candidates and 1,024 items keep a response under a few MB; 4k fits the longest AmP LFs."""

from __future__ import annotations

from dataclasses import dataclass

# Calls in flight per client connection: far below the handler pool, so no client holds them all
DEFAULT_CALLS_PER_PEER = 32
# Seconds on the server's Prolog thread before a call moves to the long lane: a cheap check's wait
DEFAULT_PROLOG_SLICE_S = 0.1


@dataclass(frozen=True)
class Limits:
    max_prompt_chars: int = 65_536
    max_candidates: int = 256
    max_candidate_chars: int = 4_096
    max_lf_chars: int = 4_096
    max_batch_items: int = 1_024
    max_beam: int = 64
    max_tokens: int = 512
    max_message_bytes: int = 16 * 1024 * 1024
    max_queue: int = 256
