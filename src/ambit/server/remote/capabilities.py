"""What an OpenAI-compatible endpoint can do, probed once at start-up with tiny live requests
(never cached). A server may silently ignore an unknown parameter, so each probe checks the
*effect* (a grammar forcing an unlikely string, beams that differ), not just HTTP 200."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ambit.server.remote import validate as V
from ambit.server.remote.errors import CapabilityMissing, RemoteAuthError, RemoteError, RemoteNotFound, RemoteRedirect
from ambit.server.remote.http import Endpoint

log = logging.getLogger("ambit.server.remote")

CHAT, COMPLETIONS, PROMPT_LOGPROBS, GRAMMAR, BEAM_SEARCH, N_SAMPLES = (
    "chat", "completions", "prompt_logprobs", "grammar", "beam_search", "n_samples")
ALL = (CHAT, COMPLETIONS, PROMPT_LOGPROBS, GRAMMAR, BEAM_SEARCH, N_SAMPLES)

# what provides each capability, for the one-line refusals
PROVIDERS = {
    CHAT: "an endpoint with /v1/chat/completions (vLLM, SGLang, llama.cpp's server, hosted chat APIs)",
    COMPLETIONS: "an endpoint with /v1/completions (vLLM, SGLang, TGI, llama.cpp's server)",
    PROMPT_LOGPROBS: "/v1/completions with echo + logprobs (vLLM, SGLang, llama.cpp's server; "
                     "OpenAI's legacy completion models); chat-only APIs do not return them",
    GRAMMAR: "vLLM's structured_outputs grammar (Lark)",
    BEAM_SEARCH: "vLLM's use_beam_search with n",
    N_SAMPLES: "n > 1 on /v1/completions, or on /v1/chat/completions where there are no completions "
               "(vLLM, SGLang, OpenAI)",
}

GRAMMAR_PROBE = "qzxv"  # a string no model writes by itself after the probe prompt


@dataclass(frozen=True)
class Capabilities:
    """An endpoint's capabilities; `echo_max_tokens`: 0 where it takes max_tokens 0 with echo."""

    names: frozenset[str]
    echo_max_tokens: int = 0

    def __contains__(self, name: str) -> bool:
        return name in self.names

    def listed(self) -> list[str]:
        return [c for c in ALL if c in self.names]

    def require(self, name: str, what: str) -> None:
        """CapabilityMissing (one line) unless the endpoint has `name`."""
        if name not in self.names:
            raise CapabilityMissing(refusal(what, name))


def refusal(what: str, capability: str) -> str:
    """The one line that refuses `what` for lack of `capability`."""
    return f"{what} needs {capability}, which this endpoint lacks; provided by {PROVIDERS[capability]}"


def probe(ep: Endpoint) -> Capabilities:
    """Probe the endpoint; a bad key, model or URL, or a malformed answer, fails in one line."""
    ids = V.models(ep.get("/models", check=V.models, retries=2, quiet=True))
    if ids and ep.spec.model not in ids:
        shown = ", ".join(repr(i)[1:-1][:80] for i in ids[:8]) + (" ..." if len(ids) > 8 else "")
        raise RemoteNotFound(f"{ep.spec.shown_url}: unknown model {ep.spec.model!r}; it serves {shown}", 404)
    names: set[str] = set()
    echo_max = 0
    if _ok(ep, "/completions", {"prompt": "Hello", "max_tokens": 1, "temperature": 0}):
        echo_max = _prompt_logprobs(ep)
        found = {COMPLETIONS: True, PROMPT_LOGPROBS: echo_max is not None, GRAMMAR: _grammar(ep),
                 BEAM_SEARCH: _n_distinct(ep, {"use_beam_search": True, "temperature": 0}, True),
                 N_SAMPLES: _n_distinct(ep, {"temperature": 1.0, "seed": 0}, False)}
        names |= {name for name, ok in found.items() if ok}
    chat = {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1}
    if _ok(ep, "/chat/completions", {**chat, "temperature": 0}):
        names.add(CHAT)
        # a chat-only endpoint decodes through chat: its n samples are asked there
        sampled = {"temperature": 1.0, "seed": 0}
        if COMPLETIONS not in names and _n_distinct(ep, sampled, False, chat, "/chat/completions"):
            names.add(N_SAMPLES)
    if not names & {CHAT, COMPLETIONS}:
        raise RemoteError(f"{ep.spec.shown_url}: neither /completions nor /chat/completions answered for "
                          f"model {ep.spec.model!r}")
    caps = Capabilities(frozenset(names), echo_max or 0)
    log.info("remote %s capabilities: %s", ep.spec.spec, ", ".join(caps.listed()))
    return caps


def _post(ep: Endpoint, path: str, body: dict, check: V.Check | None = None) -> dict | None:
    """The response, or None when the endpoint refuses it (but not for the key or a redirect)."""
    if check is None:
        check = V.chat(None) if path == "/chat/completions" else V.completions(None)
    try:
        return ep.post(path, body, check=check, cached=False, retries=2, quiet=True)
    except (RemoteAuthError, RemoteRedirect):
        raise
    except RemoteError:
        return None


def _ok(ep: Endpoint, path: str, body: dict) -> bool:
    r = _post(ep, path, body)
    return bool(r and r.get("choices"))


def _prompt_logprobs(ep: Endpoint) -> int | None:
    """max_tokens to send with echo (0, else 1) when the endpoint returns prompt log-probabilities."""
    for max_tokens in (0, 1):
        r = _post(ep, "/completions", {"prompt": "The cat sat on the mat", "max_tokens": max_tokens,
                                       "echo": True, "logprobs": 1, "temperature": 0},
                  V.completions(None, echo=True))
        lp = ((r or {}).get("choices") or [{}])[0].get("logprobs") or {}
        values = lp.get("token_logprobs") or []
        if len(values) >= 3 and all(v is not None for v in values[1:]) and lp.get("text_offset"):
            return max_tokens
    return None


def _grammar(ep: Endpoint) -> bool:
    r = _post(ep, "/completions", {"prompt": "Answer:", "max_tokens": 8, "temperature": 0,
                                   "structured_outputs": {"grammar": f'start: "{GRAMMAR_PROBE}"'}})
    return bool(r and r["choices"][0]["text"].strip() == GRAMMAR_PROBE)


def _n_distinct(ep: Endpoint, extra: dict, distinct: bool, body: dict | None = None,
                path: str = "/completions") -> bool:
    r = _post(ep, path, {**(body or {"prompt": "The", "max_tokens": 3}), "n": 2, **extra})
    texts = [c.get("text", (c.get("message") or {}).get("content")) for c in (r or {}).get("choices") or []]
    return len(texts) == 2 and (not distinct or texts[0] != texts[1])
