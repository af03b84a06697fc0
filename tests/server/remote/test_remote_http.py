"""The remote backend's HTTP layer against a stand-in server: the spec spelling, the API key,
retries (429 with Retry-After, 5xx, a stall past the timeout, a dropped connection) with their
cap, fast failures for a bad key and an unknown model, the response cache, capability probing
and the one-line refusals, and --max-concurrency."""

from __future__ import annotations

import logging
import threading

import pytest

from ambit.server.model import DecodeParams, GenerateParams
from ambit.server.remote import capabilities as C
from ambit.server.remote.backend import RemoteBackend
from ambit.server.remote.errors import CapabilityMissing, RemoteAuthError, RemoteNotFound, RemoteUnavailable
from ambit.server.remote.http import Endpoint, retry_after
from ambit.server.remote.spec import RemoteOptions, SpecError, parse_spec, read_api_key
from ambit.server.remote.worker import ConcurrentWorker

from tests.helpers.server import FakeBackend

from tests.helpers.standin import StandIn, logprob, reply, tokenize

SECRET = "sk-test-0123456789abcdef"


@pytest.fixture
def standin():
    s = StandIn().start()
    yield s
    s.kill()


def endpoint(s: StandIn, waits: list[float] | None = None, **kw) -> Endpoint:
    opts = RemoteOptions(**{"cache_dir": None, "backoff_s": 0.5, "retries": 3, "timeout_s": 5.0, **kw})
    return Endpoint(parse_spec(f"openai:{s.model}@{s.url}"), opts,
                    sleep=(waits.append if waits is not None else lambda _s: None))


def test_spec_spelling():
    s = parse_spec("openai:smollm2@http://127.0.0.1:8000/v1")
    assert (s.model, s.base_url, s.spec) == ("smollm2", "http://127.0.0.1:8000/v1", "openai:smollm2@http://127.0.0.1:8000/v1")
    assert parse_spec("openai:meta-llama/Llama-3.1-8B@https://api.example.com/v1/").base_url == "https://api.example.com/v1"
    for bad in ("openai:smollm2", "openai:@http://x/v1", "openai:m@ftp://x/v1", "smollm2@http://x/v1"):
        with pytest.raises(SpecError, match="expected openai:<MODEL>@<BASE_URL>"):
            parse_spec(bad)


def test_api_key_from_file_then_environment(tmp_path, monkeypatch):
    f = tmp_path / "key"
    f.write_text(f"\n{SECRET}\nsecond\n")
    monkeypatch.setenv("OPENAI_API_KEY", "from-env")
    assert read_api_key(f) == SECRET
    assert read_api_key(None) == "from-env"
    monkeypatch.delenv("OPENAI_API_KEY")
    assert read_api_key(None) is None
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(SpecError, match="empty"):
        read_api_key(tmp_path / "empty")
    with pytest.raises(SpecError, match="cannot read"):
        read_api_key(tmp_path / "missing")
    assert SECRET not in repr(RemoteOptions(api_key=SECRET))


def test_retry_after_parses_seconds_and_dates():
    assert retry_after("2") == 2.0
    assert retry_after(None) is None
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == pytest.approx(10.0)


def test_429_honours_retry_after_with_a_cap(standin):
    waits: list[float] = []
    ep = endpoint(standin, waits, max_wait_s=3.0)
    standin.faults.extend(["429:2", "429:1000", "429"])
    r = ep.post("/completions", {"prompt": "a b", "max_tokens": 1})
    assert r["choices"]
    assert waits == [2.0, 3.0, 2.0]  # Retry-After, Retry-After capped, backoff 0.5·2² on the third
    snap = ep.snapshot()
    assert (snap["requests"], snap["retries"]) == (4, 3)


def test_an_answer_that_arrives_as_a_poll_ends_is_returned(standin, monkeypatch):
    """The wait for an answer polls (so that a caller who left is noticed); an answer that came in
    just as one poll's wait ran out was raised as that wait's TimeoutError (CI: the capability
    probe of a slow stand-in failed the server's start-up). It is the answer, and no retry."""
    from ambit.server.remote import http

    class ArrivesAsThePollEnds:
        def __init__(self, fut):
            self.fut, self.polls = fut, 0

        def result(self, timeout=None):
            self.polls += timeout is not None  # the client's creation waits without a timeout
            if self.polls == 1 and timeout is not None:
                self.fut.result(10)  # the answer is in ...
                raise TimeoutError  # ... as the poll's wait gives up
            return self.fut.result(timeout)

        def done(self):
            return self.fut.done()

        def cancel(self):
            return self.fut.cancel()

    submit = http._Loop.submit
    monkeypatch.setattr(http._Loop, "submit", lambda loop, coro: ArrivesAsThePollEnds(submit(loop, coro)))
    ep = endpoint(standin)
    assert ep.post("/completions", {"prompt": "a b", "max_tokens": 1}, cached=False)["choices"][0]["text"]
    assert (ep.snapshot()["requests"], ep.snapshot()["retries"]) == (1, 0)


def test_5xx_timeout_and_dropped_connection_are_retried(standin):
    waits: list[float] = []
    ep = endpoint(standin, waits, timeout_s=0.5)
    standin.stall_s = 2.0
    standin.faults.extend(["500", "stall", "drop"])
    r = ep.post("/completions", {"prompt": "a b", "max_tokens": 1})
    assert r["choices"][0]["text"]
    assert waits == [0.5, 1.0, 2.0]
    assert ep.snapshot()["requests"] == 4


def test_gives_up_after_the_retries(standin):
    ep = endpoint(standin, retries=2)
    standin.faults.extend(["500"] * 5)
    with pytest.raises(RemoteUnavailable, match="HTTP 500.*gave up after 3 attempts"):
        ep.post("/completions", {"prompt": "a", "max_tokens": 1})


def test_a_dead_endpoint_is_retried_then_reported(standin):
    ep = endpoint(standin, retries=1)
    standin.kill()
    with pytest.raises(RemoteUnavailable, match="gave up after 2 attempts"):
        ep.post("/completions", {"prompt": "a", "max_tokens": 1})


def test_the_vllm_readiness_check_asks_through_the_endpoint(standin):
    """local_vllm.serves, the wait for a starting vLLM: true once /models lists the name, false
    for another name and for nothing listening (one attempt each)."""
    from ambit.server.remote.local_vllm import serves

    assert serves(standin.url, standin.model)
    assert not serves(standin.url, "another-model")
    standin.kill()
    assert not serves(standin.url, standin.model)


def test_bad_key_fails_fast_at_probe_and_is_never_logged(caplog):
    s = StandIn(key="the-right-key").start()
    try:
        caplog.set_level(logging.DEBUG)
        opts = RemoteOptions(api_key=SECRET, cache_dir=None)
        with pytest.raises(RemoteAuthError, match="HTTP 401.*--api-key-file or \\$OPENAI_API_KEY") as err:
            RemoteBackend.load(f"openai:standin@{s.url}", opts)
        assert s.posts == 0  # the first request (GET /models) already failed, without retries
        assert SECRET not in str(err.value) and all(SECRET not in r.getMessage() for r in caplog.records)
        ok = RemoteBackend.load(f"openai:standin@{s.url}", RemoteOptions(api_key="the-right-key", cache_dir=None))
        assert "chat" in ok.probed
    finally:
        s.kill()


def test_unknown_model_fails_fast_naming_what_is_served(standin):
    with pytest.raises(RemoteNotFound, match="unknown model 'gpt-9'; it serves standin"):
        RemoteBackend.load(f"openai:gpt-9@{standin.url}", RemoteOptions(cache_dir=None))


def test_cache_answers_a_repeated_request_and_never_stores_the_key(standin, tmp_path):
    ep = endpoint(standin, cache_dir=tmp_path, api_key=None)
    body = {"prompt": ["Human: hi Computer: yes"], "max_tokens": 0, "echo": True, "logprobs": 1}
    first = ep.post("/completions", body)
    assert ep.post("/completions", body) == first
    assert (ep.snapshot()["requests"], ep.snapshot()["cache_hits"], standin.posts) == (1, 1, 1)
    other = Endpoint(parse_spec(f"openai:standin@{standin.url.replace('127.0.0.1', 'localhost')}"),
                     RemoteOptions(cache_dir=tmp_path))
    other.post("/completions", body)  # another endpoint: its own entry
    assert standin.posts == 2
    keyed = Endpoint(parse_spec(f"openai:standin@{standin.url}"), RemoteOptions(cache_dir=tmp_path, api_key=SECRET))
    keyed.post("/completions", body)  # the key is not part of the cache key ...
    assert standin.posts == 2
    assert not any(SECRET.encode() in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())  # ... nor of any entry


def test_probe_sees_what_the_endpoint_does():
    full = StandIn().start()
    chat_only = StandIn(caps=("chat",)).start()
    ignores = StandIn(caps=("chat", "completions", "prompt_logprobs")).start()  # ignores extras silently
    try:
        opts = RemoteOptions(cache_dir=None)
        assert RemoteBackend.load(f"openai:standin@{full.url}", opts).probed.listed() == list(C.ALL)
        assert RemoteBackend.load(f"openai:standin@{chat_only.url}", opts).probed.listed() == ["chat"]
        assert RemoteBackend.load(f"openai:standin@{ignores.url}", opts).probed.listed() == [
            "chat", "completions", "prompt_logprobs"]
    finally:
        for s in (full, chat_only, ignores):
            s.kill()


def test_missing_capabilities_are_refused_before_any_request():
    s = StandIn(caps=("chat",)).start()
    try:
        be = RemoteBackend.load(f"openai:standin@{s.url}", RemoteOptions(cache_dir=None))
        sent = s.posts
        with pytest.raises(CapabilityMissing) as err:
            be.score_batch([("Computer:", [" yes", " no"])])
        line = str(err.value)
        assert "\n" not in line and "prompt_logprobs" in line and "echo + logprobs" in line
        with pytest.raises(CapabilityMissing, match="5 beams .* needs n_samples"):
            be.decode("Computer: ", "fol", DecodeParams("beam", 5, 1.0, 1.0, 16, 0), None, lambda: False)
        with pytest.raises(CapabilityMissing, match="needs completions"):
            be.generate([("user", "hello")], GenerateParams(4, False), lambda: False)
        assert s.posts == sent
        assert be.generate([("user", "hello")], GenerateParams(4, True), lambda: False).text in ("yes", "no")
        # parsing through chat: the prompt as one user turn, unconstrained, the reply's first line
        (h,) = be.decode("Computer: ", "fol", DecodeParams("beam", 1, 1.0, 1.0, 16, 0), None, lambda: False)
        assert h.text == reply("Computer:") and h.tokens == [] and h.logprob == 0.0
    finally:
        s.kill()


def test_scores_slice_the_candidate_tokens_from_the_echo(standin):
    be = RemoteBackend.load(f"openai:standin@{standin.url}", RemoteOptions(cache_dir=None))
    prompt = "Human: is it raining? Computer:"
    yes, no = be.score_batch([(prompt, [" yes", " no, it is not"])])[0]
    assert yes.tokens == [" yes"] and yes.sum_logprob == pytest.approx(logprob(":", " yes"))
    toks = tokenize(" no, it is not")
    want = [logprob(a, b) for a, b in zip([":"] + toks[:-1], toks)]
    assert no.tokens == toks and no.token_logprobs == pytest.approx(want)
    assert yes.min_prob_renorm + no.min_prob_renorm == pytest.approx(1.0)
    # a candidate that merges with the prompt's last character: the merged token is the first target
    (merged,) = be.score_batch([("Computer: ", ["yes"])])[0]
    assert merged.tokens == [" yes"]


def test_max_concurrency_bounds_requests_in_flight():
    s = StandIn(delay_s=0.2).start()
    try:
        be = RemoteBackend.load(f"openai:standin@{s.url}", RemoteOptions(cache_dir=None, max_concurrency=3))
        worker = ConcurrentWorker(be, be.max_concurrency)
        s.max_in_flight = 0
        futs = [worker.submit_score(f"Question {i}:", [" yes", " no"]) for i in range(12)]
        assert all(len(f.result(timeout=30)) == 2 for f in futs)
        assert s.max_in_flight == 3
        worker.close()
    finally:
        s.kill()


def test_worker_queue_is_bounded():
    gate = threading.Event()
    worker = ConcurrentWorker(FakeBackend(), max_concurrency=1, max_queue=2)
    worker.submit_call(lambda _b: gate.wait(5))
    worker.submit_call(lambda _b: None)
    from ambit.server.batcher import QueueFull
    with pytest.raises(QueueFull):
        worker.submit_call(lambda _b: None)
    gate.set()
    worker.close()
