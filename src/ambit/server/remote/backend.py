"""`RemoteBackend`: the server's `ModelBackend` (`server.model`) over an OpenAI-compatible endpoint:
echo log-probabilities for scores, `structured_outputs` grammars where taken. A missing capability
raises `CapabilityMissing` first; every answer is validated before it is used or cached."""

from __future__ import annotations

import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from ambit.server.model import Capability, DecodeStopped

from ambit.server.remote import capabilities as C
from ambit.server.remote import stopping
from ambit.server.remote import validate as V
from ambit.server.remote.capabilities import Capabilities
from ambit.server.remote.errors import CapabilityMissing
from ambit.server.remote.http import Endpoint
from ambit.server.remote.spec import RemoteOptions, RemoteSpec, parse_spec

PLAIN_SEPARATOR = "\n\n"  # as server.lm.generate joins turns without a chat template


class RemoteBackend:
    """A model served elsewhere; `probed`: what the endpoint showed at `load`."""

    kind = "causal"

    def __init__(self, endpoint: Endpoint, caps: Capabilities) -> None:
        self.endpoint, self.probed = endpoint, caps
        self.max_concurrency = endpoint.options.max_concurrency
        template = {Capability.CHAT_TEMPLATE} if C.CHAT in caps else set()
        self.capabilities = frozenset({Capability.CONCURRENT, *template})

    @classmethod
    def load(cls, spec: str | RemoteSpec, options: RemoteOptions = RemoteOptions(),
             transport: Any = None) -> "RemoteBackend":
        """Probe the endpoint, so a bad key, model or URL fails at start-up, in one line."""
        ep = Endpoint(parse_spec(spec) if isinstance(spec, str) else spec, options, transport=transport)
        try:
            return cls(ep, C.probe(ep))
        except BaseException:
            ep.close()
            raise

    def close(self) -> None:
        self.endpoint.close()

    def info(self) -> dict:
        return {"model_id": self.endpoint.spec.spec, "device": "remote", "dtype": "", "vocab_size": 0,
                "kind": self.kind, "remote": self.report}

    def report(self) -> dict:
        """Endpoint, model, capabilities and the counters so far (never the key)."""
        return {"base_url": self.endpoint.spec.shown_url, "model": self.endpoint.spec.model,
                "capabilities": self.probed.listed(), "max_concurrency": self.max_concurrency,
                **self.endpoint.snapshot()}

    def score_batch(self, items: list[tuple[str, list[str]]], end_marker: bool = False) -> list[list[Any]]:
        self.probed.require(C.PROMPT_LOGPROBS, "forced-decode scoring (Score, AmP FDM/FIM, likelihood ranking)")
        if end_marker:
            raise CapabilityMissing("end-marker scores need the full next-token distribution, which an "
                                    "OpenAI-compatible endpoint does not return; provided by the embedded engine")
        if len(items) == 1:
            return [self._score(*items[0])]
        should_stop = stopping.current()  # the caller's, on the pool's threads too

        def one(item: tuple[str, list[str]]) -> list[Any]:
            with stopping.stop_when(should_stop):
                return self._score(*item)

        with ThreadPoolExecutor(max_workers=min(len(items), self.max_concurrency)) as pool:
            return list(pool.map(one, items))

    def _score(self, prompt: str, candidates: list[str]) -> list[Any]:
        from ambit.server.values import renormalise

        if not prompt:
            raise ValueError("prompt: an endpoint returns no log-probability for the first token; "
                             "scoring needs a non-empty prompt")
        texts = [prompt + c for c in candidates]
        r = self.endpoint.post("/completions", {
            "prompt": texts, "max_tokens": self.probed.echo_max_tokens, "echo": True, "logprobs": 1,
            "temperature": 0}, check=_scores_check(texts, len(prompt)))
        choices = _in_order(r)
        out = [_candidate_score(c, len(prompt), text, ch["logprobs"])
               for c, text, ch in zip(candidates, texts, choices)]
        renormalise(out)
        return out

    def decode(self, prompt: str, fmt: str, params: Any, grammar: str | None,
               should_stop: Callable[[], bool]) -> list[Any]:
        """Hypotheses for `prompt`, best first (`params`: a server.model.DecodeParams)."""
        from ambit.logic import grammar_text
        from ambit.server.values import grammar_with_lead, split_lead

        core, lead = split_lead(prompt)
        k, beams = params.k, params.strategy == "beam"
        if C.COMPLETIONS not in self.probed:
            return self._decode_chat(core, params, should_stop)
        base: dict[str, Any] = {"prompt": core, "max_tokens": params.max_tokens, "logprobs": 1, "stop": ["\n"]}
        constrained = C.GRAMMAR in self.probed
        if constrained:
            base["structured_outputs"] = {"grammar": grammar_with_lead(grammar or grammar_text(fmt), lead)}
        if beams and k > 1 and not constrained and C.BEAM_SEARCH in self.probed:
            # vLLM's beam search ignores structured_outputs and stop: beams only where there is no grammar
            requests = [{**base, "n": k, "use_beam_search": True, "temperature": 0}]
        else:
            requests = self._greedy_then_samples(base, params)
        check = lambda n: V.completions(n, logprobs_needed=C.PROMPT_LOGPROBS in self.probed)  # noqa: E731
        return self._hypotheses("/completions", requests, should_stop, lambda ch: _hypothesis(ch, lead), check)

    def _decode_chat(self, core: str, params: Any, should_stop: Callable[[], bool]) -> list[Any]:
        """A chat-only endpoint: the prompt as one user turn, unconstrained; the first line."""
        base = {"messages": [{"role": "user", "content": core}], "max_tokens": params.max_tokens}
        return self._hypotheses("/chat/completions", self._greedy_then_samples(base, params), should_stop,
                                _chat_hypothesis, V.chat)

    def _greedy_then_samples(self, base: dict[str, Any], params: Any) -> list[dict[str, Any]]:
        """Beams: the greedy path, then k-1 samples; sampling: k samples."""
        k = params.k
        if params.strategy == "beam":
            requests = [{**base, "n": 1, "temperature": 0}]
            if k > 1:
                self.probed.require(C.N_SAMPLES, f"{k} beams (from beam search or n samples)")
                requests.append({**base, "n": k - 1, "temperature": 1.0, "seed": params.seed})
            return requests
        if k > 1:
            self.probed.require(C.N_SAMPLES, f"{k} samples")
        return [{**base, "n": k, "temperature": params.temperature, "top_p": params.top_p, "seed": params.seed}]

    def _hypotheses(self, path: str, requests: list[dict[str, Any]], should_stop: Callable[[], bool],
                    hypothesis: Callable[[dict], Any], check: Callable[[int], V.Check]) -> list[Any]:
        """The distinct hypotheses of `requests`' choices (each text's best score), best first."""
        hyps: dict[str, Any] = {}
        for body in requests:
            if should_stop():
                raise DecodeStopped("decoding stopped: request cancelled")
            with stopping.stop_when(should_stop):
                r = self.endpoint.post(path, body, check=check(int(body.get("n", 1))))
            for ch in _in_order(r):
                h = hypothesis(ch)
                if h.text not in hyps or hyps[h.text].score < h.score:
                    hyps[h.text] = h
        return sorted(hyps.values(), key=lambda h: -h.score)

    def generate(self, turns: list[tuple[str, str]], params: Any, should_stop: Callable[[], bool]) -> Any:
        """The reply (an engine `Generation`) to (role, content) turns, until `should_stop()`."""
        with stopping.stop_when(should_stop):
            return self._generate(turns, params)

    def _generate(self, turns: list[tuple[str, str]], params: Any) -> Any:
        from ambit.server.values import Generation

        t0 = time.perf_counter()
        sampling = {"temperature": params.temperature}
        if params.temperature > 0:
            sampling.update(top_p=params.top_p, seed=params.seed)
        if params.use_chat_template:
            self.probed.require(C.CHAT, "chat generation (Generate with the chat template, RADD/implicature generate)")
            messages = [{"role": r, "content": c} for r, c in turns]
            r = self.endpoint.post("/chat/completions", {"messages": messages, "max_tokens": params.max_new_tokens,
                                                         **sampling}, check=V.chat(1))
            shown = json.dumps(messages, ensure_ascii=False)
        else:
            self.probed.require(C.COMPLETIONS, "plain-text generation (Generate without the chat template)")
            shown = PLAIN_SEPARATOR.join(c for _, c in turns)
            r = self.endpoint.post("/completions", {"prompt": shown, "max_tokens": params.max_new_tokens, **sampling},
                                   check=V.completions(1))
        ch, usage = r["choices"][0], r.get("usage") or {}
        text = (ch["message"].get("content") or "") if params.use_chat_template else ch["text"]
        finish = "stop" if ch.get("finish_reason") == "stop" else "length"
        return Generation(text, shown, bool(params.use_chat_template), int(usage.get("prompt_tokens") or 0),
                          int(usage.get("completion_tokens") or 0), finish, time.perf_counter() - t0)


def load(spec: str, device: str | None = None, dtype: str | None = None, remote: Any = None) -> RemoteBackend:
    """The registry's loader (`server.backends`); the endpoint chooses device and dtype."""
    if device or dtype:
        raise ValueError("--device and --dtype do not apply to a remote model (the endpoint chooses)")
    return RemoteBackend.load(spec, remote if remote is not None else RemoteOptions())


def _in_order(r: dict) -> list[dict]:
    return sorted(r["choices"], key=lambda ch: ch.get("index", 0))


def _targets(prompt_len: int, text: str, offsets: list[int]) -> tuple[int, list[int]]:
    """(echoed tokens, indices of the candidate's tokens: those that end past the prompt)."""
    n = sum(1 for o in offsets if o < len(text))  # echoed tokens only
    ends = list(offsets[1:n]) + [len(text)]
    return n, [t for t in range(n) if ends[t] > prompt_len]


def _scores_check(texts: list[str], prompt_len: int) -> V.Check:
    """An echo answer for `texts`: one choice each, a log-probability for every candidate token."""
    base = V.completions(len(texts), logprobs_needed=True, echo=True)

    def check(r: Any) -> None:
        base(r)
        for i, (text, ch) in enumerate(zip(texts, _in_order(r))):
            lp = ch["logprobs"]
            _echo_check(i, text, ch["text"], lp)
            _, targets = _targets(prompt_len, text, lp["text_offset"])
            if not targets and len(text) > prompt_len:
                raise V.ResponseInvalid(f"choices[{i}].logprobs.text_offset", lp["text_offset"][:8],
                                        "at least one token of the candidate (none ends past the prompt)")
            for t in targets:
                if lp["token_logprobs"][t] is None:
                    raise V.ResponseInvalid(f"choices[{i}].logprobs.token_logprobs[{t}]", None,
                                            "the log-probability of a candidate token")
    return check


def _echo_check(i: int, sent: str, echoed: str, lp: dict) -> None:
    """ResponseInvalid (retried, never cached) unless the echo is of `sent`: its text and tokens
    match it and its offsets start at 0, never go back and stay inside the echoed text."""
    field = f"choices[{i}]"
    if echoed[:len(sent)] != sent:
        raise V.ResponseInvalid(f"{field}.text", echoed[:len(sent) + 20], f"the text sent, echoed ({sent[:60]!r}…)")
    tokens, offsets = lp["tokens"], lp["text_offset"]
    if not offsets or offsets[0] != 0:
        raise V.ResponseInvalid(f"{field}.logprobs.text_offset[0]", offsets[0] if offsets else None,
                                "0 (the echoed text's first character)")
    for t in range(1, len(offsets)):
        if not offsets[t - 1] <= offsets[t] <= len(echoed):
            raise V.ResponseInvalid(f"{field}.logprobs.text_offset[{t}]", offsets[t],
                                    f"an offset from {offsets[t - 1]} to {len(echoed)} (inside the echoed text)")
    n = sum(1 for o in offsets if o < len(sent))
    if any(tok.startswith("bytes:") for tok in tokens[:n]):
        return  # byte-fallback tokens (vLLM's "bytes:\\xe2"): their text is not the characters
    joined = "".join(tokens[:n])
    if joined != sent:
        raise V.ResponseInvalid(f"{field}.logprobs.tokens", joined[:len(sent) + 20],
                                f"tokens that concatenate to the text sent ({sent[:60]!r}…)")


def _candidate_score(candidate: str, prompt_len: int, text: str, lp: dict) -> Any:
    """The `CandidateScore` of one echoed `prompt + candidate` (tokens ending past the prompt)."""
    from ambit.server.values import CandidateScore

    tokens, lps, offsets = lp["tokens"], lp["token_logprobs"], lp["text_offset"]  # validated (_scores_check)
    _, targets = _targets(prompt_len, text, offsets)
    values = [float(lps[t]) for t in targets]
    probs = [math.exp(x) for x in values]
    return CandidateScore(
        text=candidate, tokens=[tokens[t] for t in targets], token_ids=[], token_probs=probs,
        min_prob=min(probs) if probs else 1.0, min_prob_renorm=float("nan"), sum_logprob=sum(values),
        mean_logprob=sum(values) / len(values) if values else 0.0, token_logprobs=values)


def _chat_hypothesis(choice: dict) -> Any:
    """A `Hypothesis` from a chat choice's first non-empty line (score 0: greedy stays first)."""
    from ambit.server.hypothesis import Hypothesis

    content = choice["message"].get("content") or ""
    text = next((ln.strip() for ln in content.splitlines() if ln.strip()), "")
    return Hypothesis(text=text, logprob=0.0, token_probs=[], tokens=[], min_prob=1.0,
                      finished=choice.get("finish_reason") == "stop", score=0.0)


def _hypothesis(choice: dict, lead: str) -> Any:
    """An engine `Hypothesis` from one completion choice (the lead cut off the text)."""
    from ambit.server.hypothesis import Hypothesis

    raw = choice["text"]
    cut = raw.find("\n")  # beam search ignores `stop`: the LF is the first line
    raw = raw if cut < 0 else raw[:cut]
    text = raw[len(lead):] if lead and raw.startswith(lead) else raw.strip()
    lp = choice.get("logprobs") or {}
    tokens, offsets = list(lp.get("tokens") or []), list(lp.get("text_offset") or [])
    values = list(lp.get("token_logprobs") or [])
    if offsets and cut >= 0:  # only the tokens of the first line
        start = offsets[0]
        keep = sum(1 for o in offsets if o - start < cut)
        tokens, values = tokens[:keep], values[:keep]
    values = [float(x) for x in values if x is not None]
    probs, logprob = [math.exp(x) for x in values], sum(values)
    return Hypothesis(text=text, logprob=logprob, token_probs=probs, tokens=tokens,
                      min_prob=min(probs) if probs else 1.0, finished=choice.get("finish_reason") == "stop",
                      score=logprob)
