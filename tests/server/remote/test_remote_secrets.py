"""Secrets never echoed (issue 45, attack 3): an endpoint that echoes the request's Authorization
header, the key in a URL, a query parameter and a JSON field, in its error body, on every status
code, JSON or plain text. The key reaches no exception text, no log line (the server's retries
included), no gRPC status and no cache; `ambit._scrub` masks tokens, URL credentials and keys."""

from __future__ import annotations

import logging

import pytest

from ambit import _scrub
from ambit.client.api import Client
from ambit.client.errors import AmbitError
from ambit.server import serve
from ambit.server.remote.backend import RemoteBackend
from ambit.server.remote.errors import RemoteError, RemoteUnavailable
from ambit.server.remote.spec import RemoteOptions

from .hostile import Hostile

PROMPT = "Human: is it raining? Computer:"
KEYS = ["sk-echo-0123456789abcdef", "opaque-Q7w8e9r0t1y2"]  # an OpenAI-style key, and one no pattern knows
CODES = [400, 401, 403, 404, 409, 413, 422, 429, 500, 502, 503]


def _opts(tmp_path, key: str) -> RemoteOptions:
    return RemoteOptions(api_key=key, cache_dir=tmp_path / "cache", retries=1, backoff_s=0.0, max_wait_s=0.0,
                         timeout_s=10.0)


@pytest.fixture(params=KEYS)
def echoing(request):
    s = Hostile(key=request.param).start()
    s.key_in_use = request.param
    yield s
    s.kill()


@pytest.mark.parametrize("as_json", [True, False])
def test_no_status_code_carries_the_key_into_an_error_a_log_or_the_cache(echoing, tmp_path, caplog, as_json):
    key = echoing.key_in_use
    be = RemoteBackend.load(f"openai:standin@{echoing.url}", _opts(tmp_path, key))
    echoing.mode, echoing.echo_json = "echo", as_json
    with caplog.at_level(logging.DEBUG):
        for code in CODES:
            echoing.echo_status = code
            with pytest.raises((RemoteError, RemoteUnavailable)) as err:
                be.score_batch([(PROMPT, [" yes", " no"])])
            assert key not in str(err.value), (code, str(err.value))
            assert f"HTTP {code}" in str(err.value)
    assert key not in caplog.text and "***" in caplog.text + str(err.value)
    assert len(be.endpoint.cache) == 0
    be.close()


@pytest.mark.parametrize("code", [400, 500])
def test_through_grpc_neither_the_status_nor_the_server_log_holds_the_key(echoing, tmp_path, caplog, code):
    key = echoing.key_in_use
    srv = serve(model=f"openai:standin@{echoing.url}", port=0, remote=_opts(tmp_path, key))
    try:
        echoing.mode, echoing.echo_status = "echo", code
        with caplog.at_level(logging.DEBUG), Client(f"127.0.0.1:{srv.port}") as c:
            with pytest.raises(AmbitError) as err:
                c.score(PROMPT, [" yes", " no"], timeout=20)
        assert err.value.code != "INTERNAL" and key not in err.value.message and "***" in err.value.message
        assert key not in caplog.text
    finally:
        srv.stop(0)


@pytest.mark.parametrize("text, hidden", [
    ("Authorization: Bearer abc.def-ghi_jkl", "abc.def-ghi_jkl"),
    ("proxy said: authorization=Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
    ("GET https://bob:hunter22@api.example.com/v1", "hunter22"),
    ("https://api.example.com/v1?api_key=k3y-v4lue&x=1", "k3y-v4lue"),
    ('{"api_key": "k3y-v4lue", "model": "m"}', "k3y-v4lue"),
    ("invalid key sk-proj-AbCdEf123456 given", "AbCdEf123456"),
    ("X-Api-Key: zzzz-1234-yyyy", "zzzz-1234-yyyy"),
])
def test_scrub_masks_tokens_url_credentials_and_keys(text, hidden):
    out = _scrub.scrub(text)
    assert hidden not in out and "***" in out


def test_a_remembered_secret_is_masked_in_any_form():
    _scrub.remember("plain-secret-value-42")
    _scrub.remember("alice:pa55word-xyz")
    out = _scrub.scrub("echo plain-secret-value-42 / pa55word-xyz / YWxpY2U6cGE1NXdvcmQteHl6")
    assert "plain-secret-value-42" not in out and "pa55word-xyz" not in out and "YWxpY2U6cGE1NXdvcmQteHl6" not in out
    assert _scrub.scrub("ordinary text, model smollm2") == "ordinary text, model smollm2"


def test_the_log_filter_scrubs_arguments_and_tracebacks(caplog):
    _scrub.remember("tb-secret-999")
    log = logging.getLogger("ambit.server.remote")
    with caplog.at_level(logging.WARNING, logger="ambit.server.remote"):
        log.warning("endpoint said %s", "Bearer tb-secret-999")
        try:
            raise RuntimeError("boom tb-secret-999")
        except RuntimeError:
            log.exception("failed")
    assert "tb-secret-999" not in caplog.text and "boom ***" in caplog.text
