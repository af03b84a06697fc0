"""Bounded Prolog work: the worker's stack, inference and time limits stop hostile goals with
a reason, the engine recovers from failures made on purpose (stack overflow, an uncaught
Prolog exception, a Python error inside a job) and answers the next call; and through a real
gRPC server, hostile formulas get UNKNOWN or a documented error while the server keeps serving."""

from __future__ import annotations

import grpc
import pytest

from ambit.logic.runtime.worker import STACK_LIMIT_BYTES, PrologError, PrologUnavailable, inference_budget, worker

try:
    worker()
except PrologUnavailable as e:  # pragma: no cover - depends on the machine
    pytest.skip(f"SWI-Prolog unavailable: {e}", allow_module_level=True)

from ambit.proto.v1 import ambit_pb2 as pb  # noqa: E402
from ambit.proto.v1 import ambit_pb2_grpc  # noqa: E402
from ambit.server import serve  # noqa: E402

DOCUMENTED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED,
              grpc.StatusCode.DEADLINE_EXCEEDED}


def _alive() -> None:
    assert worker().query_json("X = 7, Out = X", time_limit=5) == 7
    assert worker().query_json_quiet("Out = [1, 2]", time_limit=5) == [1, 2]


def test_stack_limit_is_set_on_the_worker_thread():
    flag = worker().query_json("current_prolog_flag(stack_limit, Out)", time_limit=5)
    assert flag == STACK_LIMIT_BYTES


@pytest.mark.parametrize("query", ["query_json", "query_json_quiet"])
def test_huge_term_is_a_memory_error_then_the_next_call_is_answered(query):
    with pytest.raises(PrologError) as err:
        getattr(worker(), query)("numlist(1, 200000000, L), length(L, Out)", time_limit=30)
    assert err.value.reason == "memory" and "resources" in str(err.value)
    _alive()


@pytest.mark.parametrize("query", ["query_json", "query_json_quiet"])
def test_inference_and_time_limits_give_their_reason(query):
    loop = "between(1, inf, N), N < 0, Out = N"  # never succeeds, never ends
    with pytest.raises(PrologError) as err:
        getattr(worker(), query)(loop, time_limit=60, inferences=200_000)
    assert err.value.reason == "inference_limit" and not err.value.timed_out
    with pytest.raises(PrologError) as err:
        getattr(worker(), query)(loop, time_limit=0.3)
    assert err.value.reason == "time_limit" and err.value.timed_out
    _alive()


def test_uncaught_exception_and_python_error_in_a_job_leave_the_engine_usable():
    with pytest.raises(Exception, match="boom"):
        worker().run(lambda prolog: list(prolog.query("throw(boom)")))
    _alive()

    def half_done(prolog):
        for _ in prolog.query("member(X, [1, 2, 3])"):
            raise RuntimeError("job failed with a query open")

    with pytest.raises(RuntimeError, match="query open"):
        worker().run(half_done)
    _alive()
    with pytest.raises(PrologError, match="Prolog error"):
        worker().query_json("atom_length(1, 2, 3), Out = 1", time_limit=5)
    _alive()


def test_inference_budget_grows_with_time():
    assert inference_budget(0.0) == 1_000_000 and inference_budget(2.0) < inference_budget(4.0)


def _deep(n: int) -> str:
    return "exists x . " + "( " * n + "man(x)" + " )" * n


def _wide(n: int) -> str:
    return "exists x . " + " AND ".join(f"p{i}(x)" for i in range(n))


def _exploding(k: int) -> str:
    """OR under forall with many predicates: the countermodel search space is 2^k per element."""
    return "forall x . " + " AND ".join(f"( p{i}(x) OR q{i}(x) )" for i in range(k))


def test_hostile_formulas_through_the_server_then_a_valid_request_is_answered():
    srv = serve(model="none", port=0)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            stub = ambit_pb2_grpc.AmbitServiceStub(ch)
            hostile = [(_deep(2000), "exists x . man(x)"), (_wide(400), _wide(399)),
                       (_exploding(12), _exploding(11) + " AND ( p11(x) OR r(x) )")]
            for a, b in hostile:
                try:
                    r = stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=a, b=b, time_limit_ms=1500), timeout=20)
                except grpc.RpcError as e:
                    assert e.code() in DOCUMENTED, (e.code(), e.details())
                    assert e.details()
                else:
                    assert r.verdict in (pb.VERDICT_EQUIVALENT, pb.VERDICT_NOT_EQUIVALENT, pb.VERDICT_UNKNOWN)
                    if r.verdict == pb.VERDICT_UNKNOWN:
                        assert "reason" in r.witness_json
            ok = stub.CheckEquivalence(pb.CheckEquivalenceRequest(a="exists x . man(x)", b="exists y . man(y)"),
                                       timeout=20)
            assert ok.verdict == pb.VERDICT_EQUIVALENT
    finally:
        srv.stop(0)
