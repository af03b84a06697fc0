"""Fuzzing the remote backend's answers (issue 37): 2,000 answers of varied shapes and values (an
httpx mock transport in place of the network, the toy model's answer mutated: impossible
log-probabilities, lists of different lengths, choices missing, too few or of the wrong type,
bodies that are not JSON or nested past the recursion limit, odd status codes) through scoring,
decoding and generation. Every call either returns finite probabilities or fails with a
`ServiceError` whose gRPC status is not INTERNAL, and no answer that fails its check is cached."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import grpc
import httpx

from ambit.server.model import DecodeParams, GenerateParams
from ambit.server.remote import capabilities as C
from ambit.server.remote import validate as V
from ambit.server.remote.backend import RemoteBackend
from ambit.server.remote.cache import request_key
from ambit.server.remote.http import Endpoint
from ambit.server.remote.spec import RemoteOptions, parse_spec
from ambit.server.service.errors import ServiceError
from ambit.server.status import code_of

from tests.helpers.standin import StandIn

CASES = 2000
BASE = "http://fuzz.invalid/v1"
ODD = [float("nan"), float("inf"), -float("inf"), 3.0, 1e6, 1e-6, 0, -0.0, -1e300, "x", None, True, [], {}]


def mutate(rng: random.Random, a: dict) -> object:
    """One random damage to the answer `a` (in place where it can be)."""
    choices = a.get("choices") if isinstance(a, dict) else None
    ch = rng.choice(choices) if isinstance(choices, list) and choices else None
    lp = ch.get("logprobs") if isinstance(ch, dict) else None
    kind = rng.randrange(14)
    if kind == 0 and isinstance(lp, dict) and lp.get("token_logprobs"):
        vals = lp["token_logprobs"]
        vals[rng.randrange(len(vals))] = rng.choice(ODD)
    elif kind == 1 and isinstance(lp, dict):
        name = rng.choice(["tokens", "token_logprobs", "text_offset"])
        lst = lp.get(name)
        if isinstance(lst, list):
            lst.append(rng.choice(["t", -0.5, 7])) if rng.random() < 0.5 else lst[:] and lst.pop()
    elif kind == 2 and isinstance(ch, dict):
        ch["logprobs"] = rng.choice([None, "lp", [], {"tokens": "abc"}, {}])
    elif kind == 3 and isinstance(choices, list):
        del choices[rng.randrange(len(choices) + 1):]
    elif kind == 4 and isinstance(choices, list) and choices:
        choices[rng.randrange(len(choices))] = rng.choice(["text", 3, None, [], ["a"]])
    elif kind == 5 and isinstance(a, dict):
        a["choices"] = rng.choice([None, "choices", {}, 5])
    elif kind == 6 and isinstance(ch, dict):
        key = rng.choice(["text", "message", "index", "finish_reason"])
        ch[key] = rng.choice([None, 3, ["x"], {"content": 5}, {"content": None}, True, "s"])
    elif kind == 7 and isinstance(a, dict):
        a["usage"] = rng.choice([None, "u", {"prompt_tokens": -1}, {"completion_tokens": "3"}, {"prompt_tokens": 2.5}])
    elif kind == 8:
        return rng.choice([[], "answer", 3, None, [a]])
    elif kind == 9 and isinstance(lp, dict) and isinstance(lp.get("text_offset"), list) and lp["text_offset"]:
        lp["text_offset"][rng.randrange(len(lp["text_offset"]))] = rng.choice([-1, "0", None, 1.5, True])
    elif kind == 10 and isinstance(lp, dict) and isinstance(lp.get("tokens"), list) and lp["tokens"]:
        lp["tokens"][rng.randrange(len(lp["tokens"]))] = rng.choice([None, 3, ["t"]])
    elif kind == 11 and isinstance(choices, list) and choices:
        choices.append(json.loads(json.dumps(choices[0])))
    return a


def raw_body(rng: random.Random, answer: object) -> tuple[int, bytes]:
    r = rng.random()
    if r < 0.03:
        return 200, b"{not json"
    if r < 0.05:
        return 200, b"[" * 5000 + b"]" * 5000  # nested past the recursion limit
    if r < 0.06:
        return 200, b""
    if r < 0.10:
        return rng.choice([400, 404, 429, 500, 503, 301]), b'{"error": {"message": "no"}}'
    return 200, json.dumps(answer).encode()  # NaN and Infinity as JSON's non-standard literals


def test_fuzzed_answers_never_give_internal_nor_get_cached(tmp_path):
    rng = random.Random(37)
    toy = StandIn(model="fuzz")
    sent: dict[str, tuple[str, dict]] = {}  # cache key -> (path, body) of each request

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path.removeprefix("/v1")
        if request.method == "GET":
            return httpx.Response(200, json={"data": [{"id": "fuzz"}]})
        body = json.loads(request.content)
        sent[request_key(BASE, "fuzz", path, body)] = (path, body)
        answer = toy.chat(body) if path == "/chat/completions" else toy.completions(body)
        if rng.random() < 0.85:
            for _ in range(rng.randint(1, 3)):
                answer = mutate(rng, answer)
        status, data = raw_body(rng, answer)
        headers = {"Location": "http://elsewhere.invalid/v1"} if status == 301 else {}
        return httpx.Response(status, content=data, headers=headers)

    opts = RemoteOptions(cache_dir=tmp_path / "cache", retries=0, backoff_s=0.0, max_wait_s=0.0)
    ep = Endpoint(parse_spec(f"openai:fuzz@{BASE}"), opts, transport=httpx.MockTransport(handler))
    be = RemoteBackend(ep, C.Capabilities(frozenset(C.ALL), 0))
    outcomes: Counter[str] = Counter()
    try:
        for i in range(CASES):
            op = rng.randrange(5)
            prompt = f"Question {rng.randrange(400)}: is it raining? Computer:"
            try:
                if op == 0:
                    cands = [" yes", " no", " no, it is not"][: rng.randint(1, 3)]
                    out = be.score_batch([(prompt, cands)])[0]
                    probs = [p for s in out for p in s.token_probs] + [math.exp(s.sum_logprob) for s in out]
                elif op in (1, 2):
                    params = DecodeParams("beam" if op == 1 else "sample", rng.randint(1, 3), 1.0, 1.0, 8, i)
                    out = be.decode(prompt, "fol", params, None, lambda: False)
                    probs = [p for h in out for p in h.token_probs] + [math.exp(h.logprob) for h in out]
                else:
                    g = be.generate([("user", prompt)], GenerateParams(4, op == 3), lambda: False)
                    assert isinstance(g.text, str)
                    probs = []
                assert all(math.isfinite(p) and 0.0 <= p <= 1.0 for p in probs), probs
                outcomes["ok"] += 1
            except ServiceError as e:
                assert code_of(e) is not grpc.StatusCode.INTERNAL
                outcomes[type(e).__name__] += 1
            # anything else (KeyError, TypeError, ValueError ...) fails the test: it would be INTERNAL
        # every cached answer passes the check its own request needed
        cached = 0
        for key in ep.cache.keys():
            path, body = sent[key]
            answer = ep.cache.get(key)
            prompts = body["prompt"] if isinstance(body.get("prompt"), list) else [body.get("prompt")]
            n = len(prompts) * int(body.get("n", 1))
            check = V.chat(n) if path == "/chat/completions" else V.completions(
                n, logprobs_needed=body.get("logprobs") is not None, echo=bool(body.get("echo")))
            check(answer)
            cached += 1
    finally:
        be.close()
    assert sum(outcomes.values()) == CASES
    assert outcomes["ok"] > 100 and outcomes["InvalidResponse"] > 500, outcomes
    assert cached > 50 and ep.snapshot()["invalid_responses"] >= outcomes["InvalidResponse"]
