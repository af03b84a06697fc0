"""The attacks on the web port, replayed at a size that makes each bound bind (small configured
limits, not gigabytes), against the web application served by uvicorn on a real socket in this
process, on a service core with real Prolog:

- pages that leave: their Prolog work is cancelled, their slots freed (not 30 s of work later);
- deadlines held in the queue: a request whose deadline passes while it waits is answered 504 at
  it and never started; a full queue is 503 with Retry-After at once;
- unfinished requests: at most `max_connections` connections held, each closed after
  `request_timeout_s`; the page answers again as soon as they are gone;
- large bodies at once: the bytes in flight are bounded (503 with Retry-After past them), bodies
  are parsed off the event loop, and a body of many tiny values is refused before it is parsed;
- a 5,000-digit integer and a lone surrogate: a 400 naming the field, no traceback;
- every error in the one shape `{"error": {code, message, field, ...}}`;
- one call scope for both edges: a gRPC call and a web request wait for the same slots.

`tests/web/test_serve_http.py` replays the connection flood against `ambit serve --http` itself
(the page in its own process) while gRPC calls go on; `tests/web/test_runs_at_scale.py` the large run.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
import types
import urllib.error
import urllib.request

import pytest

pytest.importorskip("uvicorn")

from ambit.server.backends import worker_for  # noqa: E402
from ambit.server.guard.limits import Limits  # noqa: E402
from ambit.server.service import AmbitCore  # noqa: E402
from ambit.server.service.deadline import Admission  # noqa: E402
from ambit.web import body as bodies  # noqa: E402
from ambit.web.logs import RepeatFilter  # noqa: E402
from ambit.web.limits import WebLimits  # noqa: E402
from ambit.web.serve import WebConfig, start  # noqa: E402
from tests.helpers.server import FakeBackend  # noqa: E402
from tests.server.abuse import pigeonhole  # noqa: E402

GUARD_S = 60.0  # a hang guard, far above what each rule needs


def _serve(core: AmbitCore, **limits) -> tuple:
    """The web application for `core` on a free loopback port with `limits` (`WebLimits` fields)."""
    web = start(types.SimpleNamespace(core=core, tokens=None), WebConfig(limits=WebLimits(**limits)))
    port = int(web.url.rstrip("/").rsplit(":", 1)[1])
    return web, port


def _post(port: int, path: str, body: dict | bytes, timeout: float = GUARD_S) -> tuple[int, dict, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


def _get(port: int, path: str, timeout: float = GUARD_S) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
        return r.status


def _raw(port: int, body: bytes) -> socket.socket:
    """A socket that has sent a whole POST /api/entailment with `body` (left open)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /api/entailment HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (port, len(body), body))
    return s


def _wait_for(cond, timeout: float = GUARD_S) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


@pytest.fixture(scope="module")
def logic_core():
    from ambit.server.service.core import start_prolog

    start_prolog()
    return AmbitCore(Limits(), prolog_seconds=5.0, admission=Admission(slots=8, max_queue=8, per_client=0))


@pytest.mark.slow  # real Prolog on hard problems: a few seconds
def test_pages_that_leave_stop_their_prolog_work(logic_core):
    """Six hard entailments (each would use its whole 5 s Prolog budget: 30 s one after another),
    their pages gone 0.3 s after sending: every slot is free again within a budget or so, because
    the work was cancelled (before, the server worked on for the whole 30 s)."""
    premises, conclusion = pigeonhole(10)
    body = json.dumps({"premises": premises, "conclusion": conclusion, "format": "folio", "timeout_s": 60}).encode()
    web, port = _serve(logic_core)
    try:
        socks = [_raw(port, body) for _ in range(6)]
        assert _wait_for(lambda: logic_core.admission.running >= 1), "no request started"
        time.sleep(0.3)
        t0 = time.monotonic()
        for s in socks:
            s.close()
        assert _wait_for(lambda: logic_core.admission.running == 0, 25.0), \
            f"{logic_core.admission.running} requests still at work after their pages left"
        freed = time.monotonic() - t0
        assert freed < 25.0  # 6 x 5 s would be 30 s: the work was cancelled, not finished
        status, _, answer = _post(port, "/api/equivalence", {"a": "exists x . a(x)", "b": "exists y . a(y)"})
        assert status == 200 and answer["verdict"] == "EQUIVALENT"
    finally:
        web.stop()


@pytest.mark.slow  # 40 hard requests on real Prolog: a few seconds
def test_forty_hard_requests_with_a_2_s_deadline_are_all_answered_by_it(logic_core):
    """The queued-deadlines attack: 40 hard entailments at once, each with 2 s to go (Prolog would
    need 200 s for all of them). Every one is answered by its deadline and a margin for a loaded
    machine (before: 300 requests with 5 s were answered at 9.3 to 130.7 s), each a 504 or, past
    the bounds, a 503 or 429, or a 200 whose verdict is UNKNOWN (the engine's own time limit, cut
    to the deadline, ran out a moment before the deadline's 504 could); the server answers a
    trivial request at once after them."""
    premises, conclusion = pigeonhole(10)
    body = {"premises": premises, "conclusion": conclusion, "format": "folio", "timeout_s": 2}
    web, port = _serve(logic_core)
    try:
        took: list[tuple[int, float]] = []
        lock = threading.Lock()

        def ask() -> None:
            t0 = time.monotonic()
            status, _, answer = _post(port, "/api/entailment", body)
            outcome = answer["error"]["code"] if "error" in answer else answer.get("verdict")
            with lock:
                took.append((status, time.monotonic() - t0, outcome))

        threads = [threading.Thread(target=ask) for _ in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(GUARD_S)
        assert len(took) == 40
        assert {(s, c) for s, _, c in took if s == 200} <= {(200, "UNKNOWN")}, sorted({(s, c) for s, _, c in took})
        assert {s for s, _, _ in took} <= {200, 503, 504}, sorted({(s, c) for s, _, c in took})
        assert max(t for _, t, _ in took) < 2.0 + 3.0  # its deadline, and a margin for a loaded machine
        assert _wait_for(lambda: logic_core.admission.running == 0, 10.0)
        assert _post(port, "/api/equivalence", {"a": "exists x . a(x)", "b": "exists y . a(y)"})[0] == 200
    finally:
        web.stop()


def test_a_deadline_passes_in_the_queue_504_at_it_never_started():
    """One slot, held by a parse the stand-in model makes last 300 s: requests behind it with a
    1 s deadline are answered 504 at their deadline, their work never started; past the queue's
    bound a request is 503 with Retry-After at once."""
    core = AmbitCore(admission=Admission(slots=1, max_queue=3, per_client=0))
    core.attach_model(worker_for(FakeBackend(delay=300), 1, 0.001, 4), FakeBackend().info())
    started: list[float] = []
    real = core.check_equivalence
    core.check_equivalence = lambda *a, **k: started.append(time.monotonic()) or real(*a, **k)  # type: ignore
    web, port = _serve(core)
    holder = None
    try:
        body = json.dumps({"utterance": "every bird saw a boy", "timeout_s": 120}).encode()
        holder = socket.create_connection(("127.0.0.1", port))
        holder.sendall(b"POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                       b"Content-Length: %d\r\n\r\n%s" % (port, len(body), body))
        assert _wait_for(lambda: core.admission.running == 1)
        results: list = [None] * 3

        def ask(i: int) -> None:
            t0 = time.monotonic()
            status, _, answer = _post(port, "/api/equivalence", {"a": "exists x . a(x)", "b": "exists y . a(y)",
                                                                 "timeout_s": 1})
            results[i] = (status, answer, time.monotonic() - t0)

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        assert _wait_for(lambda: core.admission.waiting == 3)
        status, headers, answer = _post(port, "/api/equivalence", {"a": "p", "b": "p"})  # the queue is full
        assert status == 503 and answer["error"]["code"] == "OVERLOADED" and int(headers["retry-after"]) >= 1
        for t in threads:
            t.join(GUARD_S)
        for status, answer, took in results:
            assert status == 504 and answer["error"]["code"] == "DEADLINE_EXCEEDED", answer
            assert "never started" in answer["error"]["message"]
            assert took >= 0.9  # at its deadline: not sooner
        assert started == []  # none of them ran
    finally:
        if holder is not None:
            holder.close()
        web.stop()
        core.worker.close()


def test_unfinished_requests_hold_at_most_the_connection_bound_and_time_out():
    """200 connections that send half a request head: at most `max_connections` (20) are held,
    the rest closed at once; the held ones are closed after `request_timeout_s` (1 s); then the
    page answers again."""
    core = AmbitCore()
    web, port = _serve(core, max_connections=20, request_timeout_s=1.0)
    socks = []
    try:
        connections = web.server.server_state.connections
        for _ in range(200):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1")  # never finished
            socks.append(s)
        peak = 0
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            peak = max(peak, len(connections))
            time.sleep(0.01)
        assert 0 < peak <= 20
        assert _wait_for(lambda: len(connections) == 0, 10.0), f"{len(connections)} unfinished requests still held"
        for s in socks:  # every one of them was closed by the server (the ones past the bound at once)
            s.settimeout(5)
            try:
                assert s.recv(100) == b""
            except ConnectionResetError:
                pass
        assert _get(port, "/api/info") == 200
    finally:
        for s in socks:
            s.close()
        web.stop()


def test_a_keep_alive_connection_gets_a_new_clock_per_request():
    """A connection that keeps alive and sends whole requests is not cut by the request timeout."""
    core = AmbitCore()
    web, port = _serve(core, request_timeout_s=1.0, keepalive_s=5.0)
    try:
        with socket.create_connection(("127.0.0.1", port)) as s:
            for _ in range(3):
                s.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
                data = b""
                while b"\r\n\r\n" not in data:
                    data += s.recv(65536)
                head, _, rest = data.partition(b"\r\n\r\n")
                length = int(next(v for k, _, v in (h.partition(b": ") for h in head.split(b"\r\n"))
                                  if k.lower() == b"content-length"))
                while len(rest) < length:
                    rest += s.recv(65536)
                assert head.startswith(b"HTTP/1.1 200") and len(rest) == length
                time.sleep(0.6)  # 1.8 s in all: past one request timeout, under the keep-alive
    finally:
        web.stop()


def test_bodies_in_flight_are_bounded_and_parsed_off_the_loop(monkeypatch):
    """Eight 400 KB bodies at once under a 1 MiB budget of bytes in flight: at most two are read
    at a time, the others are 503 with Retry-After at once; each body is parsed on a body thread,
    never on the event loop; the budget is all given back; the page answers meanwhile."""
    parsed_on: list[str] = []
    real = bodies.parse

    def parse(*args, **kwargs):
        parsed_on.append(threading.current_thread().name)
        time.sleep(0.3)  # a slow check, so that the bodies overlap
        return real(*args, **kwargs)

    monkeypatch.setattr(bodies, "parse", parse)
    core = AmbitCore(Limits(max_message_bytes=1024 * 1024))
    web, port = _serve(core, max_body_bytes_in_flight=1024 * 1024)
    try:
        big = json.dumps({"a": "exists x . a(x)", "b": "exists x . a(x)", "pad": "x" * 400_000}).encode()
        results: list = []
        threads = [threading.Thread(target=lambda: results.append(_post(port, "/api/equivalence", big)))
                   for _ in range(8)]
        for t in threads:
            t.start()
        assert _get(port, "/api/info") == 200
        for t in threads:
            t.join(GUARD_S)
        codes = sorted(r[0] for r in results)
        assert 200 in codes and 503 in codes, codes
        for status, headers, answer in results:
            if status == 503:
                assert answer["error"]["code"] == "OVERLOADED" and int(headers["retry-after"]) >= 1
                assert "--http-max-body-bytes" in answer["error"]["message"]
        assert parsed_on and all(name.startswith("ambit-web-body") for name in parsed_on)
        assert web.app.api.bodies.used == 0
    finally:
        web.stop()


def test_a_body_of_many_tiny_values_is_refused_before_it_is_parsed():
    with pytest.raises(Exception) as refused:
        bodies.parse(json.dumps({"a": [0] * 5000}).encode(), max_values=1000, max_int_digits=100)
    assert refused.value.reason == "TOO_LARGE" and refused.value.field == "body"


@pytest.mark.parametrize("raw, field, code", [
    (b'{"a": "p", "b": "p", "timeout_s": ' + b"9" * 5000 + b"}", "body", "OUT_OF_RANGE"),
    (b'{"a": "p", "b": "p", "timeout_s": 1e999}', "timeout_s", "OUT_OF_RANGE"),
    (b'{"a": "p", "b": "p", "timeout_s": NaN}', "body", "OUT_OF_RANGE"),
    (b'{"a": "\\ud800", "b": "p"}', "a", "BAD_JSON"),
    (b'{"a": "p", "b": ', "body", "BAD_JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "body", "TOO_DEEP"),
    (b'{"a": ' + b"[" * 100 + b"]" * 100 + b', "b": "p"}', "a", "TOO_DEEP"),
    (b'\xff\xfe{}', "body", "BAD_JSON"),
])
def test_hostile_numbers_and_text_are_a_400_naming_the_field_never_a_traceback(raw, field, code, caplog):
    core = AmbitCore()
    web, port = _serve(core)
    try:
        with caplog.at_level(logging.WARNING):
            status, _, answer = _post(port, "/api/equivalence", raw)
        assert status == 400, answer
        assert answer["error"]["field"] == field and answer["error"]["code"] == code
        assert "Traceback" not in caplog.text and "failed" not in caplog.text
    finally:
        web.stop()


def test_a_huge_content_length_is_refused_not_a_crash():
    core = AmbitCore()
    web, port = _serve(core)
    try:
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"POST /api/equivalence HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %s\r\n\r\n" % (port, b"9" * 5000))
            assert s.recv(100).split(b" ")[1] in (b"400", b"413")  # h11 itself refuses it, or the guard
        assert _get(port, "/api/info") == 200
    finally:
        web.stop()


def test_an_rpc_and_a_web_request_wait_for_the_same_slots():
    """In one process (`--http-in-process`), the gRPC interceptor and the web API open their
    calls on the same core: with one slot held by an RPC, a web request finds the queue full."""
    import grpc

    from ambit.proto.v1 import ambit_pb2 as pb
    from ambit.proto.v1 import ambit_pb2_grpc
    from ambit.server import serve

    backend = FakeBackend(delay=300)
    srv = serve(backend=backend, port=0, workers=1, limits=Limits(max_queue=1), max_calls_per_peer=0)
    srv.core.admission.max_queue = 0  # one slot, no queue: the next request is refused at once
    web, port = _serve(srv.core)
    try:
        with grpc.insecure_channel(srv.address) as ch:
            stub = ambit_pb2_grpc.AmbitServiceStub(ch)
            call = stub.ParseDistribution.future(pb.ParseDistributionRequest(utterance="every bird saw a boy"),
                                                 timeout=GUARD_S)
            assert _wait_for(lambda: srv.core.admission.running == 1)
            status, headers, answer = _post(port, "/api/equivalence", {"a": "p", "b": "p"})
            assert status == 503 and answer["error"]["code"] == "OVERLOADED" and "retry-after" in headers
            call.cancel()
        assert _wait_for(lambda: srv.core.admission.running == 0)
        assert _post(port, "/api/equivalence", {"a": "exists x . a(x)", "b": "exists y . a(y)"})[0] == 200
    finally:
        web.stop()
        srv.stop(0)


def test_repeated_errors_are_one_line_an_interval_with_a_count():
    handler = logging.Handler()
    lines: list[str] = []
    handler.emit = lambda record: lines.append(record.getMessage())  # type: ignore[method-assign]
    handler.addFilter(RepeatFilter(every_s=0.2))
    logger = logging.getLogger("ambit.test.repeats")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for _ in range(10_000):
            logger.error("socket.accept() out of system resource: %s", "Too many open files")
        time.sleep(0.25)
        logger.error("socket.accept() out of system resource: %s", "Too many open files")
        logger.error("another error")
    finally:
        logger.removeHandler(handler)
    assert len(lines) == 3
    assert lines[1].endswith("[and 9999 more like it in the last 0 s]") and lines[2] == "another error"


def test_a_page_that_leaves_cancels_its_model_work_in_the_queue_too():
    """A parse waiting for the one model slot whose page goes away is dropped from the queue."""
    core = AmbitCore(admission=Admission(slots=1, max_queue=4, per_client=0))
    core.attach_model(worker_for(FakeBackend(delay=300), 1, 0.001, 4), FakeBackend().info())
    web, port = _serve(core)
    try:
        body = json.dumps({"utterance": "every bird saw a boy", "timeout_s": 120}).encode()
        first = socket.create_connection(("127.0.0.1", port))
        first.sendall(b"POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n%s" % (port, len(body), body))
        assert _wait_for(lambda: core.admission.running == 1)
        second = socket.create_connection(("127.0.0.1", port))
        second.sendall(b"POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                       b"Content-Length: %d\r\n\r\n%s" % (port, len(body), body))
        assert _wait_for(lambda: core.admission.waiting == 1)
        second.close()
        assert _wait_for(lambda: core.admission.waiting == 0, 10.0)
        first.close()
        assert _wait_for(lambda: core.admission.running == 0, 10.0)
    finally:
        web.stop()
        core.worker.close()


def test_the_watcher_needs_no_polling():
    """The disconnect watch awaits the connection's next message (no 0.1 s poll per request)."""
    from ambit.web import api

    assert "sleep" not in api._watch.__code__.co_names and asyncio.iscoroutinefunction(api._watch)
