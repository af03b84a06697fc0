"""The gRPC server fronting a model served elsewhere (a stand-in endpoint): once a call's deadline
passes, the HTTP requests it started are dropped: the attempt in flight has its connection shut
down, and no retry is sent after the caller left."""

from __future__ import annotations

import time

import pytest

from ambit.client.api import Client
from ambit.client.errors import AmbitError
from ambit.server import serve
from ambit.server.remote import stopping
from ambit.server.remote.spec import RemoteOptions

from tests.helpers.standin import StandIn


def wait_until(cond, timeout_s: float = 5.0) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


PROMPT = "Human: is it raining? Computer:"


@pytest.fixture
def fronted(tmp_path):
    """(stand-in, running gRPC server over it, requests the warm-up sent): retries every 0.2–0.4 s,
    far past any deadline here. One call of each kind first, so that no first-call import (the
    engine's result types) runs into a deadline."""
    s = StandIn().start()
    opts = RemoteOptions(cache_dir=None, max_concurrency=2, retries=50, backoff_s=0.2, max_wait_s=0.4)
    srv = serve(model=f"openai:standin@{s.url}", port=0, remote=opts)
    try:
        with Client(f"127.0.0.1:{srv.port}") as c:
            c.generate([("user", "warm")], max_new_tokens=4)
            c.score(PROMPT, [" yes", " no"])
            c.parse_distribution("every man saw a dog", prompt="Computer: ", k=1)
        yield s, srv
    finally:
        srv.stop(0)
        s.kill()


def test_no_retry_is_sent_after_the_deadline(fronted):
    s, srv = fronted
    with Client(f"127.0.0.1:{srv.port}") as c:
        started = s.posts
        s.faults.extend(["500"] * 100)  # the endpoint keeps failing: the backend would retry 50 times
        t0 = time.monotonic()
        with pytest.raises(AmbitError) as err:
            c.generate([("user", "hello")], max_new_tokens=4, timeout=1.0)
        assert err.value.code == "DEADLINE_EXCEEDED" and time.monotonic() - t0 < 3
        assert wait_until(lambda: srv.core.worker.queued() == 0, 2.0), "the job outlived its caller"
        sent = s.posts
        time.sleep(1.5)  # several backoff periods
        assert s.posts == sent, "a retry was sent after the caller left"
        assert 2 <= sent - started <= 12  # the attempts within the 1 s deadline
        s.faults.clear()
        assert c.generate([("user", "hello")], max_new_tokens=4).text in ("yes", "no")  # the server goes on


def test_the_attempt_in_flight_is_abandoned_at_the_deadline(fronted):
    s, srv = fronted
    s.delay_s = 30.0  # the endpoint takes 30 s to answer
    with Client(f"127.0.0.1:{srv.port}") as c:
        for call in (lambda: c.score(PROMPT, [" yes", " maybe"], timeout=0.5),
                     lambda: c.parse_distribution("every dog saw a man", prompt="Computer: ", k=1, timeout=0.5)):
            sent = s.posts
            t0 = time.monotonic()
            with pytest.raises(AmbitError) as err:
                call()
            assert err.value.code == "DEADLINE_EXCEEDED"
            # the job ends a poll period after the deadline, not when the endpoint answers 30 s later
            assert wait_until(lambda: srv.core.worker.queued() == 0, 2.0), "the request was not abandoned"
            assert time.monotonic() - t0 < 5 and s.posts == sent + 1


def test_stop_when_ors_the_callers_and_restores_the_outer_one():
    flags = {"outer": False, "inner": False}
    assert stopping.current() is None
    with stopping.stop_when(lambda: flags["outer"]):
        with stopping.stop_when(lambda: flags["inner"]):
            assert not stopping.current()()
            flags["outer"] = True
            assert stopping.current()()
        flags["outer"] = False
        flags["inner"] = True
        assert not stopping.current()()
    assert stopping.current() is None
