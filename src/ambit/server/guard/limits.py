"""Request limits: checked by the service core, reported by GetModelInfo, documented here.

Why these numbers: AmP prompts (10 few-shot examples) are ~3k characters and a RADD text
~2k, so 64k characters leaves room for long contexts without letting one request hold the
model for minutes; 256 candidates and 1,024 batch items keep one response under a few MB;
AmP LFs are under 300 characters, 4k allows the long randomly built ones.
"""

from __future__ import annotations

from dataclasses import dataclass

# Calls in flight per client connection before RESOURCE_EXHAUSTED (with a retry hint): above
# the client's own default concurrency, far below the handler pool, so one client cannot hold
# every handler thread.
DEFAULT_CALLS_PER_PEER = 32
# Seconds a Prolog call runs on the server's own Prolog thread before it moves to the long
# lane (a Prolog process of its own): a trivial check (a few ms of Prolog) waits behind at most
# this long per hard call queued ahead of it, and clients that used little Prolog lately go first.
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
