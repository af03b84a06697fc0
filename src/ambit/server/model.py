"""The model side of the server behind one interface (`ModelBackend`), and the types backends
share; extra abilities are declared as data (`capabilities`), not probed. No torch or grpc."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable, Protocol


class DecodeStopped(RuntimeError):
    """Decoding stopped because `should_stop()` turned true (deadline passed, client gone)."""


class ContextTooLong(ValueError):
    """A prompt (with what is scored or generated after it) longer than the model's context."""

    def __init__(self, prompt_tokens: int, extra_tokens: int, context: int) -> None:
        super().__init__(f"{prompt_tokens} prompt tokens + {extra_tokens} more is longer than the model's "
                         f"context of {context} tokens")
        self.prompt_tokens, self.extra_tokens, self.context = prompt_tokens, extra_tokens, context


@dataclass(frozen=True)
class DecodeParams:
    """Validated decoding options (defaults filled in by the servicer)."""

    strategy: str  # "beam" | "sample"
    k: int  # beam size or number of samples
    temperature: float
    top_p: float
    max_tokens: int
    seed: int


@dataclass(frozen=True)
class GenerateParams:
    """Validated generation options: greedy when temperature is 0."""

    max_new_tokens: int
    use_chat_template: bool
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0


class Capability(str, enum.Enum):
    """What a backend can do beyond `ModelBackend` (`CAPABILITY_MEMBERS`: what each promises)."""

    CHAT_TEMPLATE = "chat_template"  # replies to Generate turns through the model's chat template
    CHAT_PROMPT = "chat_prompt"  # chat_prompt(turns): the template's text, for a formula reply
    TOKENS = "tokens"  # count_tokens(text) and check_context(text, extra): a context to keep to
    CONCURRENT = "concurrent"  # jobs run side by side (up to max_concurrency), not batched on one thread


CAPABILITY_MEMBERS: dict[Capability, tuple[str, ...]] = {
    Capability.CHAT_TEMPLATE: (), Capability.CHAT_PROMPT: ("chat_prompt",),
    Capability.TOKENS: ("count_tokens", "check_context"),
    Capability.CONCURRENT: ("max_concurrency",)}


class ModelBackend(Protocol):
    """What the server needs of a model, run on the model worker (`server.batcher`)."""

    capabilities: frozenset[Capability]

    def info(self) -> dict:
        """model_id, device, dtype, vocab_size and kind, as GetModelInfo and run.json report them."""
        ...

    def score_batch(self, items: list[tuple[str, list[str]]], end_marker: bool = False) -> list[list[Any]]:
        """`CandidateScore`s (server.values) of each (prompt, candidates) item, in order."""
        ...

    def decode(self, prompt: str, fmt: str, params: DecodeParams, grammar: str | None,
               should_stop: Callable[[], bool]) -> list[Any]:
        """`Hypothesis`es (server.hypothesis) for `prompt` under `fmt`'s grammar, best first."""
        ...

    def generate(self, turns: list[tuple[str, str]], params: GenerateParams, should_stop: Callable[[], bool]) -> Any:
        """The reply (a `Generation`, server.values) to (role, content) turns."""
        ...

    def close(self) -> None:
        """Free what the backend holds (connections, caches) when the server stops."""
        ...


def missing_members(backend: object) -> list[str]:
    """The members `backend` lacks of `ModelBackend` and its declared capabilities."""
    caps = getattr(backend, "capabilities", None)
    if not isinstance(caps, frozenset) or not all(isinstance(c, Capability) for c in caps):
        return ["capabilities (a frozenset of server.model.Capability)"]
    needed = ["info", "score_batch", "decode", "generate", "close"]
    needed += [m for c in sorted(caps) for m in CAPABILITY_MEMBERS[c]]
    return [m for m in needed if not hasattr(backend, m)]
