"""A broken or hostile model endpoint (issue 37, cases 1–6), each played by a stand-in on
127.0.0.1: impossible log-probabilities, missing ones the probe promised, answers of the wrong
shape, a body that never ends, a trickle, a 100 MB body, redirects to another port, credentials in
the URL, and start-up against an unknown model, a wrong-shape probe answer or nothing at all.
Each ends in a clear error naming the endpoint, the field and the value; nothing bad is used,
cached or kept; the gRPC status is never INTERNAL and the server goes on serving."""

from __future__ import annotations

import json
import logging
import math
import os
import subprocess
import sys
import threading
import time

import grpc
import pytest

from ambit.client.api import Client
from ambit.client.errors import AmbitError
from ambit.server import serve
from ambit.server.remote.backend import RemoteBackend
from ambit.server.remote.errors import InvalidResponse, RemoteNotFound, RemoteRedirect, RemoteUnavailable
from ambit.server.remote.http import Endpoint
from ambit.server.remote.spec import RemoteOptions, SpecError, parse_spec
from ambit.server.status import code_of
from tests.paths import REPO, SHARED_DATA

from .hostile import Hostile, Recorder

PROMPT = "Human: is it raining? Computer:"
SECRET = "sk-hostile-0123456789"


def opts(tmp_path=None, **kw) -> RemoteOptions:
    base = dict(cache_dir=None if tmp_path is None else tmp_path / "cache", retries=1, backoff_s=0.01,
                max_wait_s=0.02, timeout_s=10.0)
    return RemoteOptions(**{**base, **kw})


@pytest.fixture
def hostile():
    s = Hostile(key=SECRET).start()
    yield s
    s.kill()


def loaded(s: Hostile, tmp_path=None, **kw) -> RemoteBackend:
    return RemoteBackend.load(f"openai:standin@{s.url}", opts(tmp_path, api_key=SECRET, **kw))


def set_logprob(value):
    """A tamper that puts `value` as the last token's log-probability of every choice."""
    def tamper(path, answer):
        for ch in answer.get("choices", []):
            if ch.get("logprobs"):
                ch["logprobs"]["token_logprobs"][-1] = value
        return answer
    return tamper


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class PeakRss:
    """The peak RSS of this process while the block runs (sampled every 10 ms)."""

    def __enter__(self) -> "PeakRss":
        self.idle = self.peak = rss_bytes()
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._watch, daemon=True)
        self._t.start()
        return self

    def _watch(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, rss_bytes())

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._t.join()


# -- case 1: impossible log-probabilities ------------------------------------------------------
@pytest.mark.parametrize("bad, shown", [(float("nan"), "nan"), (float("inf"), "inf"), (3.0, "3.0"), (1e6, "1000000.0")])
def test_impossible_logprobs_are_an_error_never_cached_nor_used(hostile, tmp_path, bad, shown):
    be = loaded(hostile, tmp_path)
    hostile.tamper = set_logprob(bad)
    with pytest.raises(InvalidResponse) as err:
        be.score_batch([(PROMPT, [" yes", " no"])])
    msg = str(err.value)
    assert hostile.url in msg and "token_logprobs[" in msg and shown in msg and "gave up after 2 attempts" in msg
    assert code_of(err.value) is not grpc.StatusCode.INTERNAL
    assert len(be.endpoint.cache) == 0 and be.endpoint.snapshot()["invalid_responses"] == 2
    hostile.tamper = None  # the endpoint fixed: a rerun asks it again (nothing bad was cached)
    before = be.endpoint.snapshot()["requests"]
    scores = be.score_batch([(PROMPT, [" yes", " no"])])[0]
    assert be.endpoint.snapshot()["requests"] == before + 1 and len(be.endpoint.cache) == 1
    assert all(0 < p <= 1 for s in scores for p in s.token_probs)
    be.close()


def test_a_rounding_above_zero_is_clamped(hostile):
    be = loaded(hostile)
    hostile.tamper = set_logprob(1e-6)
    yes, no = be.score_batch([(PROMPT, [" yes", " no"])])[0]
    assert yes.token_logprobs[-1] == 0.0 and yes.token_probs[-1] == 1.0
    be.close()


# -- case 2: the probe promised log-probabilities, the answers have none ------------------------
def test_missing_logprobs_after_the_probe_promised_them(hostile, tmp_path):
    be = loaded(hostile, tmp_path)
    assert "prompt_logprobs" in be.probed

    def drop(path, answer):
        for ch in answer["choices"]:
            ch.pop("logprobs", None)
        return answer
    hostile.tamper = drop
    with pytest.raises(InvalidResponse, match=r"choices\[0\]\.logprobs is missing, expected log-probabilities"):
        be.score_batch([(PROMPT, [" yes", " no"])])
    from ambit.server.model import DecodeParams
    with pytest.raises(InvalidResponse, match="logprobs is missing"):
        be.decode("Computer: ", "fol", DecodeParams("beam", 1, 1.0, 1.0, 16, 0), None, lambda: False)
    assert len(be.endpoint.cache) == 0
    be.close()


# -- case 3: answers of the wrong shape ----------------------------------------------------------
def _mismatched(path, a):
    a["choices"][0]["logprobs"]["tokens"].append("x")
    return a


def _too_few(path, a):
    a["choices"] = a["choices"][:1]
    return a


def _strings(path, a):
    a["choices"] = [c.get("text", "") for c in a["choices"]]
    return a


def _no_choices(path, a):
    a.pop("choices")
    return a


def _not_an_object(path, a):
    return ["choices"]


@pytest.mark.parametrize("tamper, field", [
    (_mismatched, r"choices\[0\]\.logprobs\.token_logprobs is (\d+) tokens, (?!\1)\d+ log-probabilities"),
    (_too_few, "choices is 1 choices, expected 2"),
    (_strings, r"choices\[0\] is '.*' \(str\), expected a JSON object"),
    (_no_choices, "choices is missing, expected a list"),
    (_not_an_object, r"response is \['choices'\] \(list\), expected a JSON object"),
])
def test_wrong_shapes_are_an_error_never_cached(hostile, tmp_path, tamper, field):
    be = loaded(hostile, tmp_path)
    hostile.tamper = tamper
    with pytest.raises(InvalidResponse, match=field):
        be.score_batch([(PROMPT, [" yes", " no, it is"])])
    assert len(be.endpoint.cache) == 0
    be.close()


def test_a_bad_answer_already_in_the_cache_is_dropped_not_replayed(hostile, tmp_path):
    """A cache written by an older version (which kept bad answers): the entry fails the check,
    is dropped and asked again."""
    be = loaded(hostile, tmp_path)
    good = be.score_batch([(PROMPT, [" yes", " no"])])[0]
    (key,) = be.endpoint.cache.keys()
    entry = be.endpoint.cache.get(key)
    entry["choices"][0]["logprobs"]["token_logprobs"][-1] = 3.0
    be.endpoint.cache.put(key, entry)
    sent = hostile.posts
    again = be.score_batch([(PROMPT, [" yes", " no"])])[0]
    assert hostile.posts == sent + 1 and [s.sum_logprob for s in again] == [s.sum_logprob for s in good]
    be.close()


def test_through_grpc_the_status_is_not_internal_and_the_server_goes_on(hostile, tmp_path):
    srv = serve(model=f"openai:standin@{hostile.url}", port=0, remote=opts(tmp_path, api_key=SECRET))
    try:
        with Client(f"127.0.0.1:{srv.port}") as c:
            for tamper in (set_logprob(float("nan")), _strings, _mismatched):
                hostile.tamper = tamper
                with pytest.raises(AmbitError) as err:
                    c.score(PROMPT, [" yes", " no"], timeout=10)
                assert err.value.code == "RESOURCE_EXHAUSTED" and "invalid answer" in err.value.message
            hostile.tamper = None
            assert len(c.score(PROMPT, [" yes", " no"]).scores) == 2
            assert c.info().remote["requests"] > 0
    finally:
        srv.stop(0)


# -- case 4: endless, trickling and huge bodies ----------------------------------------------------
def test_an_endless_body_is_cut_at_the_size_cap_with_memory_bounded(hostile):
    be = loaded(hostile)  # the default cap: 8 MiB
    hostile.mode = "endless"  # 1 MB every 0.02 s, for ever
    with PeakRss() as mem:
        t0 = time.monotonic()
        with pytest.raises(InvalidResponse, match=r"larger than --max-response-bytes 8388608 \(8\.4 MB"):
            be.score_batch([(PROMPT, [" yes", " no"])])
        took = time.monotonic() - t0
    assert took < 3.0
    assert mem.peak < 2 * mem.idle, (mem.idle, mem.peak)
    assert _until(lambda: hostile.streams_open == 0, 1.0), "the endpoint is still streaming to us"
    be.close()


def test_an_endless_body_ends_at_the_deadline_with_its_request(hostile):
    be = loaded(hostile, timeout_s=1.5, retries=0, max_response_bytes=10**9)
    hostile.mode, hostile.chunk = "endless", 1024  # under the cap for longer than the deadline
    with PeakRss() as mem:
        t0 = time.monotonic()
        with pytest.raises(RemoteUnavailable, match="no complete answer within the 1.5 s deadline"):
            be.score_batch([(PROMPT, [" yes", " no"])])
        ended = time.monotonic()
    assert ended - t0 < 1.5 + 1.0
    assert mem.peak < 2 * mem.idle
    assert _until(lambda: hostile.streams_open == 0, 1.0), "the HTTP request outlived the deadline"
    assert hostile.stream_ends[-1] - t0 < 1.5 + 1.0
    be.close()


def test_grpc_deadline_ends_the_endless_request_within_a_second(hostile):
    srv = serve(model=f"openai:standin@{hostile.url}", port=0,
                remote=opts(api_key=SECRET, retries=5, max_response_bytes=10**9))
    try:
        with Client(f"127.0.0.1:{srv.port}") as c:
            c.score(PROMPT, [" yes", " no"])  # warm
            hostile.mode, hostile.chunk = "endless", 64 * 1024
            t0 = time.monotonic()
            with pytest.raises(AmbitError) as err:
                c.score(PROMPT, [" yes", " maybe"], timeout=1.0)
            assert err.value.code == "DEADLINE_EXCEEDED"
            assert _until(lambda: hostile.streams_open == 0 and hostile.stream_ends, 2.0)
            assert hostile.stream_ends[-1] - t0 < 1.0 + 1.0
    finally:
        srv.stop(0)


@pytest.mark.parametrize("mode", ["huge", "huge-chunked"])
def test_a_100_mb_body_is_refused_at_the_cap_and_never_cached(hostile, tmp_path, mode):
    be = loaded(hostile, tmp_path, retries=0)
    hostile.mode = mode
    with PeakRss() as mem:
        with pytest.raises(InvalidResponse, match="larger than --max-response-bytes 8388608"):
            be.score_batch([(PROMPT, [" yes", " no"])])
    assert mem.peak < 2 * mem.idle and len(be.endpoint.cache) == 0
    be.close()


def test_trickling_calls_free_their_slots_at_the_deadline(hostile):
    """16 calls meet a 1-byte-per-second trickle; once their deadline passes, the endpoint (healthy
    again) answers the next call at once: no connection slot is held hostage."""
    srv = serve(model=f"openai:standin@{hostile.url}", port=0,
                remote=opts(api_key=SECRET, max_concurrency=16, retries=0))
    try:
        with Client(f"127.0.0.1:{srv.port}") as c:
            c.score(PROMPT, [" yes", " no"])  # warm
            hostile.mode = "trickle"
            codes: list[str] = []

            def call(i: int) -> None:
                try:
                    c.score(f"{PROMPT} {i}", [" yes", " no"], timeout=1.0)
                    codes.append("OK")
                except AmbitError as e:
                    codes.append(e.code)
            threads = [threading.Thread(target=call, args=(i,)) for i in range(16)]
            t0 = time.monotonic()
            for t in threads:
                t.start()
            for t in threads:
                t.join(10)
            assert codes == ["DEADLINE_EXCEEDED"] * 16
            assert _until(lambda: hostile.streams_open == 0, 1.0), "trickling connections still open"
            hostile.mode = None
            t1 = time.monotonic()
            assert len(c.score(PROMPT, [" yes", " maybe"], timeout=5).scores) == 2
            assert time.monotonic() - t1 < 1.0 and t1 - t0 < 4.0
    finally:
        srv.stop(0)


# -- case 5: redirects and credentials -----------------------------------------------------------
def test_a_redirect_on_the_scoring_post_is_refused_and_the_key_stays_home(hostile):
    other = Recorder()
    try:
        be = loaded(hostile)
        hostile.mode, hostile.location = "redirect", f"{other.url}/v1/completions"
        with pytest.raises(RemoteRedirect) as err:
            be.score_batch([(PROMPT, [" yes", " no"])])
        msg = str(err.value)
        assert "HTTP 301 redirect to" in msg and "another origin" in msg and "\n" not in msg
        assert code_of(err.value) is grpc.StatusCode.FAILED_PRECONDITION
        assert other.seen == []  # nothing, let alone the key, reached the other port
        hostile.location = "/v1/elsewhere"  # same origin: not followed either (a POST never turns into a GET)
        with pytest.raises(RemoteRedirect, match="resent as a GET"):
            be.score_batch([(PROMPT, [" yes", " no"])])
        be.close()
    finally:
        other.stop()


def test_a_redirect_on_models_at_startup_sends_the_key_once_and_nowhere_else(hostile):
    other = Recorder()
    try:
        hostile.models_mode, hostile.location = "redirect", f"{other.url}/v1/models"
        with pytest.raises(RemoteRedirect, match="another origin"):
            loaded(hostile)
        assert other.seen == []
        assert hostile.auth_seen == [f"Bearer {SECRET}"]  # one GET /models, no retry, no follow
    finally:
        other.stop()


def test_credentials_in_the_url_are_never_shown(caplog, tmp_path):
    caplog.set_level(logging.DEBUG)
    s = Hostile().start()
    try:
        url = s.url.replace("http://", f"http://user:{SECRET}@")
        be = RemoteBackend.load(f"openai:standin@{url}", opts(tmp_path))
        info = be.info()
        assert SECRET not in json.dumps({**info, "remote": info["remote"]()})
        assert info["model_id"] == f"openai:standin@{s.url.replace('http://', 'http://***@')}"
        assert s.auth_seen and all(a and a.startswith("Basic ") for a in s.auth_seen)  # sent, to its origin
        s.mode = "redirect"
        s.location = "http://elsewhere.invalid/v1"
        with pytest.raises(RemoteRedirect) as err:
            be.score_batch([(PROMPT, [" yes", " no"])])
        assert SECRET not in str(err.value) and "***@" in str(err.value)
        be.close()
        s.kill()
        with pytest.raises(RemoteUnavailable) as err:  # nothing listening any more
            RemoteBackend.load(f"openai:standin@{url}", opts(retries=0))
        assert SECRET not in str(err.value)
        with pytest.raises(SpecError) as err:
            parse_spec(f"openai:@{url} trailing")
        assert SECRET not in str(err.value)
        assert not any(SECRET in r.getMessage() for r in caplog.records)
        assert not any(SECRET in p.read_bytes().decode("latin-1") for p in tmp_path.rglob("*") if p.is_file())
    finally:
        s.kill()


# -- case 6: start-up failures are one line ----------------------------------------------------------
def _serve_once(model: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ambit", "serve", "--port", "0", "--model", model,
                           "--remote-cache", "none", *extra],
                          cwd=REPO, capture_output=True, text=True, timeout=120)


def test_startup_failures_are_one_line_and_exit_1():
    s = Hostile().start()
    try:
        s.models_answer = {"data": "standin"}
        cases = {
            "openai:foo@http://127.0.0.1:9/v1": "cannot connect",
            f"openai:gpt-9@{s.url}": "unknown model 'gpt-9'; it serves",
        }
        for model, want in cases.items():
            if "gpt-9" in model:
                s.models_answer = None
            p = _serve_once(model)
            assert p.returncode == 1, p.stderr
            lines = p.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("ambit server failed to start: ") and want in lines[0], lines
        s.models_answer = {"data": "standin"}
        p = _serve_once(f"openai:standin@{s.url}")
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 1 and len(lines) == 1 and "data is 'standin' (str), expected a list" in lines[0], lines
        assert "Traceback" not in p.stderr
    finally:
        s.kill()


@pytest.mark.skipif(not (SHARED_DATA / "implicature").exists(), reason=f"no implicature data under {SHARED_DATA}")
def test_eval_against_nothing_listening_is_one_line_and_exit_1(tmp_path, capsys):
    from ambit.client.eval.cli import main as eval_main

    code = eval_main(["implicature", "--protocol", "score", "--k", "0", "--templates", "1", "--limit", "2",
                      "--out", str(tmp_path / "out"), "--model", f"openai:foo@http://u:{SECRET}@127.0.0.1:9/v1",
                      "--remote-cache", "none", "--data", str(SHARED_DATA)])
    err = capsys.readouterr().err
    assert code == 1 and SECRET not in err
    errors = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "cannot connect" in errors[0] and "Traceback" not in err
    assert len(err.strip().splitlines()) == 2  # "starting embedded server (model: ...***@...) ..." and the error


def test_a_wrong_shape_probe_answer_is_one_clear_error(hostile):
    hostile.models_answer = {"data": [{"id": 3}]}
    with pytest.raises(InvalidResponse, match=r"/models: invalid answer: data\[0\]\.id is 3 \(int\), expected a string"):
        loaded(hostile)
    hostile.models_answer = ["standin"]
    with pytest.raises(InvalidResponse, match="response is .* expected a JSON object"):
        loaded(hostile)
    hostile.models_answer = None
    with pytest.raises(RemoteNotFound):
        RemoteBackend.load(f"openai:other@{hostile.url}", opts(api_key=SECRET))


# -- the cache ---------------------------------------------------------------------------------------
def test_cache_is_bounded_oldest_first(hostile, tmp_path):
    limit = 400_000
    ep = Endpoint(parse_spec(f"openai:standin@{hostile.url}"),
                  opts(tmp_path, api_key=SECRET, cache_max_bytes=limit))
    for i in range(60):
        ep.post("/completions", {"prompt": [f"{i} " + "word " * 600], "max_tokens": 0, "echo": True, "logprobs": 1})
        assert ep.cache.volume() <= limit
    keys = set(ep.cache.keys())
    assert 0 < len(keys) < 60
    sent = hostile.posts
    ep.post("/completions", {"prompt": ["59 " + "word " * 600], "max_tokens": 0, "echo": True, "logprobs": 1})
    assert hostile.posts == sent  # the newest is still there ...
    ep.post("/completions", {"prompt": ["0 " + "word " * 600], "max_tokens": 0, "echo": True, "logprobs": 1})
    assert hostile.posts == sent + 1  # ... the oldest went first
    ep.close()


def test_no_cache_writes_nothing(hostile, tmp_path, monkeypatch):
    monkeypatch.setenv("AMBIT_CACHE", str(tmp_path / "ambit-cache"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    o = RemoteOptions.from_args(None, None, "none")
    be = RemoteBackend.load(f"openai:standin@{hostile.url}", RemoteOptions(**{**o.__dict__, "api_key": SECRET}))
    be.score_batch([(PROMPT, [" yes", " no"])])
    be.close()
    assert list(tmp_path.rglob("*")) == []


def test_size_options_parse_and_name_themselves():
    o = RemoteOptions.from_args(None, None, "none", "2MiB", "1GB")
    assert (o.max_response_bytes, o.cache_max_bytes) == (2 * 1024**2, 10**9)
    with pytest.raises(SpecError, match="--max-response-bytes 'lots'"):
        RemoteOptions.from_args(None, None, "none", "lots")
    with pytest.raises(SpecError, match="--remote-cache-max-bytes '0'"):
        RemoteOptions.from_args(None, None, "none", None, "0")


def _until(cond, timeout_s: float) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return bool(cond())


def test_isfinite_guard():  # the validation's own edge: -inf is not a log-probability either
    from ambit.server.remote.validate import ResponseInvalid, logprobs
    with pytest.raises(ResponseInvalid, match="-inf"):
        logprobs({"tokens": ["a"], "token_logprobs": [-math.inf], "text_offset": [0]}, "lp", echo=False)
