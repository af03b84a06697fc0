"""`EngineBackend`: the server's `ModelBackend` over the in-process engine (`server.lm`), so the
servicer never touches torch; it serves every spec no other backend claims (`server.backends`)."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from ambit.server.model import Capability, ContextTooLong, DecodeParams, DecodeStopped, GenerateParams
from ambit.server.values import renormalise

_CONTEXT_FIELDS = ("max_position_embeddings", "n_positions", "n_ctx")  # the config's context length


class EngineBackend:
    """A loaded language model with a scorer and a grammar-constrained decoder."""

    def __init__(self, lm: Any) -> None:
        from ambit.server.lm import Decoder
        from ambit.server.lm.generate import has_chat_template

        self.lm = lm
        self.kind = str(getattr(lm, "kind", "causal"))
        self.scorer = scorer_for(lm, self.kind)
        self.decoder = Decoder(lm) if self.kind == "causal" else None
        template = {Capability.CHAT_TEMPLATE} if has_chat_template(lm) else set()
        self.capabilities = frozenset({Capability.CHAT_PROMPT, Capability.TOKENS, *template})

    @classmethod
    def load(cls, spec: str | None = None, device: str | None = None, dtype: str | None = None) -> "EngineBackend":
        from ambit.server.lm import load_model

        return cls(load_model(spec=spec, device=device, dtype=dtype))

    def close(self) -> None:
        """Nothing to free: the weights go with the process."""

    def info(self) -> dict:
        lm = self.lm
        return {"model_id": str(getattr(lm, "model_id", "")),
                "device": str(getattr(lm, "device", "")),
                "dtype": str(getattr(lm, "dtype", "")).removeprefix("torch."),
                "vocab_size": int(getattr(lm, "vocab_size", 0) or 0), "kind": self.kind}

    def score_batch(self, items: list[tuple[str, list[str]]], end_marker: bool = False) -> list[list[Any]]:
        """Scores of (prompt, candidates) items in one engine call, items of one prompt merged."""
        merged: dict[str, list[str]] = {}
        slots: list[tuple[str, int]] = []  # (prompt, offset of the item's candidates)
        for prompt, cands in items:
            group = merged.setdefault(prompt, [])
            slots.append((prompt, len(group)))
            group.extend(cands)
        results = dict(zip(merged, self.scorer.score_batch(list(merged.items()), end_marker=end_marker)))
        out = []
        for (prompt, offset), (_, cands) in zip(slots, items):
            scores = [dataclasses.replace(s) for s in results[prompt][offset : offset + len(cands)]]
            renormalise(scores)
            out.append(scores)
        return out

    def decode(self, prompt: str, fmt: str, params: DecodeParams, grammar: str | None,
               should_stop: Callable[[], bool]) -> list[Any]:
        """Hypotheses for `prompt`, best first; raises DecodeStopped once should_stop() is true."""
        from ambit.server.lm import DecodeCancelled

        if self.decoder is None:
            raise ValueError(f"constrained decoding needs a causal model; this one is {self.kind}")
        if params.strategy == "beam":
            fn = self.decoder.beam_search
            kwargs = dict(fmt=fmt, beam=params.k, max_tokens=params.max_tokens, grammar=grammar)
        else:
            fn = self.decoder.sample
            kwargs = dict(n=params.k, fmt=fmt, temperature=params.temperature, top_p=params.top_p,
                          max_tokens=params.max_tokens, grammar=grammar, seed=params.seed)
        try:
            return fn(prompt, should_stop=should_stop, **kwargs).hypotheses
        except DecodeCancelled as e:
            raise DecodeStopped(str(e)) from None

    def generate(self, turns: list[tuple[str, str]], params: GenerateParams,
                 should_stop: Callable[[], bool]) -> Any:
        """The model's reply (a `Generation`) to (role, content) turns, until `should_stop()`."""
        from ambit.server.lm import DecodeCancelled
        from ambit.server.lm.generate import ChatTurn, generate

        if self.kind == "masked":
            raise ValueError("a masked model does not generate text: use ScoreCandidates (masked scoring)")
        try:
            return generate(self.lm, [ChatTurn(r, c) for r, c in turns], params.max_new_tokens,
                            use_chat_template=params.use_chat_template, temperature=params.temperature,
                            top_p=params.top_p, seed=params.seed, should_stop=should_stop)
        except DecodeCancelled as e:
            raise DecodeStopped(str(e)) from None

    def context_length(self) -> int | None:
        """Most tokens the model can attend over (None: no fixed limit, e.g. relative positions)."""
        config = getattr(getattr(self.lm, "model", None), "config", None)
        values = (getattr(config, name, None) for name in _CONTEXT_FIELDS)
        return next((v for v in values if isinstance(v, int) and v > 0), None)

    def check_context(self, text: str, extra_tokens: int) -> None:
        """ContextTooLong when `text`'s tokens plus `extra_tokens` exceed the model's context."""
        limit = self.context_length()
        if limit is None:
            return
        tokens = self.count_tokens(text)
        if tokens + extra_tokens > limit:
            raise ContextTooLong(tokens, extra_tokens, limit)

    def chat_prompt(self, turns: list[tuple[str, str]]) -> str:
        """`turns` through the model's chat template, with the cue for the reply."""
        from ambit.server.lm.generate import ChatTurn, render

        return render(self.lm, [ChatTurn(r, c) for r, c in turns], True)

    def count_tokens(self, text: str) -> int:
        return len(self.lm.encode(text))


def load(spec: str | None, device: str | None = None, dtype: str | None = None, remote: Any = None) -> EngineBackend:
    """The registry's loader (`server.backends`): `hf:<ID>` names a Hugging Face id."""
    if spec and spec.startswith("hf:"):
        spec = spec[3:]
    return EngineBackend.load(spec, device=device, dtype=dtype)


def scorer_for(lm: Any, kind: str) -> Any:
    """The engine scorer of the model's family (`server/lm/kinds.py`)."""
    from ambit.server.lm import Scorer
    from ambit.server.lm.masked import MaskedScorer
    from ambit.server.lm.seq2seq import Seq2SeqScorer

    return {"causal": Scorer, "seq2seq": Seq2SeqScorer, "masked": MaskedScorer}[kind](lm)
