"""Bounded input everywhere, on real servers on localhost: formulas nested past what the readers
take, in every dialect and RPC, and VerifyRADD JSON nested 32,000 deep, are INVALID_ARGUMENT
naming the field (not INTERNAL from a RecursionError); a prompt longer than the model's context
is INVALID_ARGUMENT naming both lengths (not INTERNAL from an IndexError in the model)."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server import serve

DEEP = {
    "folio-not": ("¬" * 400 + "P(a)", pb.LF_FORMAT_FOLIO),
    "nltk-not": ("-" * 500 + "p(a)", pb.LF_FORMAT_NLTK),
    "tptp-not": ("~" * 500 + "p(a)", pb.LF_FORMAT_TPTP),
    "folio-forall": ("∀x " * 500 + "P(x)", pb.LF_FORMAT_FOLIO),
}


@pytest.fixture(scope="module")
def logic_stub():
    srv = serve(model="none", port=0)
    with grpc.insecure_channel(srv.address) as ch:
        yield ambit_pb2_grpc.AmbitServiceStub(ch)
    srv.stop(0)


def _violation(err: grpc.RpcError) -> error_details_pb2.BadRequest.FieldViolation:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
    for d in rpc_status.from_call(err).details:
        bad = error_details_pb2.BadRequest()
        if d.Unpack(bad):
            return bad.field_violations[0]
    raise AssertionError(f"no field violation in {err.details()}")


@pytest.mark.parametrize("case", sorted(DEEP))
def test_deep_formulas_are_invalid_argument_in_equivalence(logic_stub, case):
    lf, fmt = DEEP[case]
    with pytest.raises(grpc.RpcError) as exc:
        logic_stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=lf, b="P(a)", format=fmt), timeout=60)
    assert _violation(exc.value).field == "a"


@pytest.mark.parametrize("case", ["nltk-not", "tptp-not", "folio-forall"])
def test_deep_formulas_are_invalid_argument_in_entailment_and_its_batch(logic_stub, case):
    lf, fmt = DEEP[case]
    with pytest.raises(grpc.RpcError) as exc:
        logic_stub.CheckEntailment(pb.CheckEntailmentRequest(premises=[lf], conclusion="q", format=fmt), timeout=60)
    assert _violation(exc.value).field == "premises[0]"
    item = pb.CheckEntailmentRequest(premises=[lf], conclusion="q", format=fmt)
    (result,) = logic_stub.CheckEntailmentBatch(pb.CheckEntailmentBatchRequest(items=[item]), timeout=60)
    assert result.status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]


def test_deeply_nested_radd_json_is_invalid_argument(logic_stub):
    with pytest.raises(grpc.RpcError) as exc:
        logic_stub.VerifyRADD(pb.VerifyRADDRequest(instance_json="[" * 32000 + "]" * 32000), timeout=60)
    violation = _violation(exc.value)
    assert violation.field == "instance_json" and violation.reason == "TOO_DEEP"


@pytest.fixture(scope="module")
def model_stub(tmp_path_factory):
    pytest.importorskip("torch")
    from ambit.server.engine_backend import EngineBackend
    from tests.helpers.engine import tiny_gpt2

    backend = EngineBackend(tiny_gpt2(tmp_path_factory.mktemp("gpt2vocab")))
    srv = serve(backend=backend, port=0)
    with grpc.insecure_channel(srv.address) as ch:
        yield ambit_pb2_grpc.AmbitServiceStub(ch), backend.context_length()
    srv.stop(0)


LONG = "the man saw the dog with the telescope . " * 300  # ~3,000 tokens; the tiny model takes 1,024


def test_prompt_longer_than_the_context_is_invalid_argument_naming_both_lengths(model_stub):
    stub, context = model_stub
    calls = {
        "ScoreCandidates": lambda: stub.ScoreCandidates(
            pb.ScoreCandidatesRequest(prompt=LONG, candidates=[" exists x . man(x)"]), timeout=60),
        "ParseDistribution": lambda: stub.ParseDistribution(pb.ParseDistributionRequest(prompt=LONG), timeout=60),
        "Generate": lambda: stub.Generate(pb.GenerateRequest(
            messages=[pb.ChatMessage(role="user", content=LONG)], max_new_tokens=4), timeout=60),
    }
    for name, call in calls.items():
        with pytest.raises(grpc.RpcError) as exc:
            call()
        violation = _violation(exc.value)
        assert violation.reason == "CONTEXT_TOO_LONG", name
        assert f"context is {context} tokens" in violation.description, violation.description
        assert int(violation.description.split(" tokens")[0]) > context
    ok = stub.ScoreCandidates(pb.ScoreCandidatesRequest(prompt="a man", candidates=[" man(x)"]), timeout=60)
    assert len(ok.scores) == 1
