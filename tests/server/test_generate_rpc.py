"""The Generate RPC end to end: a real gRPC server on localhost with the tiny random GPT-2,
`Client.generate`, and the errors bad turns and budgets get (field named)."""

from __future__ import annotations

import pytest

from ambit import server
from ambit.client.api import AmbitError, Client
from ambit.server.guard.limits import Limits
from ambit.server.engine_backend import EngineBackend


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    pytest.importorskip("torch")
    from tests.helpers.engine import tiny_gpt2

    return EngineBackend(tiny_gpt2(tmp_path_factory.mktemp("gpt2vocab")))


@pytest.fixture(scope="module")
def client(backend):
    r = server.serve(backend=backend, port=0, limits=Limits(max_tokens=64))
    with Client(r.address, timeout=60) as c:
        yield c
    r.stop(1)


def test_reply_equals_the_engine_s(client, backend):
    from ambit.server.lm.generate import ChatTurn, generate

    turns = [("user", "Every man saw a bird."), ("assistant", "Which?"), ("user", "Any.")]
    got = client.generate(turns, max_new_tokens=9)
    ref = generate(backend.lm, [ChatTurn(*t) for t in turns], 9, use_chat_template=False)
    assert (got.text, got.new_tokens, got.finish_reason, got.prompt) == (
        ref.text, ref.new_tokens, ref.finish_reason, ref.prompt)
    assert got.model_id == "tiny-gpt2" and not got.chat_template
    assert got.prompt_tokens == ref.prompt_tokens > 0
    again = client.generate([{"role": r, "content": c} for r, c in turns], max_new_tokens=9)
    assert again.text == got.text


def test_default_budget_is_capped_by_the_limit(client):
    got = client.generate([("user", "Tell me a story.")])
    assert 1 <= got.new_tokens <= 64


@pytest.mark.parametrize("kwargs, field", [
    (dict(messages=[("robot", "hi")]), "messages[0].role"),
    (dict(messages=[("user", "")]), "messages[0].content"),
    (dict(messages=[]), "messages"),
    (dict(messages=[("user", "hi")], max_new_tokens=65), "max_new_tokens"),
    (dict(messages=[("user", "hi")], use_chat_template=True), "use_chat_template"),
    (dict(messages=[("user", "hi")], temperature=-1.0), "temperature"),
])
def test_bad_requests_name_their_field(client, kwargs, field):
    with pytest.raises(AmbitError) as e:
        client.generate(**kwargs)
    assert e.value.code == "INVALID_ARGUMENT"
    assert [v["field"] for v in e.value.violations] == [field]


def test_without_a_model_it_is_a_failed_precondition():
    r = server.serve(no_model=True, port=0)
    try:
        with Client(r.address, timeout=10) as c, pytest.raises(AmbitError) as e:
            c.generate([("user", "hi")])
        assert e.value.code == "FAILED_PRECONDITION"
    finally:
        r.stop(1)


def test_a_turn_of_the_wrong_shape_is_refused_before_sending(client):
    with pytest.raises(ValueError, match=r"messages\[1\]"):
        client.generate([("user", "hi"), "hello"])
