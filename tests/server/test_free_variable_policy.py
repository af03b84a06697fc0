"""INTERNAL is a bug (issue 45, attack 4): free_variables=CONSTANT with a lower-case free variable
is INVALID_ARGUMENT naming the variable, for CheckEquivalence and per item of
CheckEquivalenceBatch (the stream goes on); Canonicalize with a full first-order dialect says
"not supported here"; every enum value of format, free_variables and symbols answers without
INTERNAL; the client's `ambit equiv` passes --free-variables."""

from __future__ import annotations

import itertools

import grpc
import pytest

from ambit.client.api import Client
from ambit.client.errors import AmbitError
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc as pb_grpc
from ambit.server import serve

LOWER = {pb.LF_FORMAT_FOLIO: "Man(x)", pb.LF_FORMAT_LISP: "( man x )", pb.LF_FORMAT_NLTK: "man(x)"}


@pytest.fixture(scope="module")
def server():
    srv = serve(model="none", port=0)
    channel = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    yield srv, pb_grpc.AmbitServiceStub(channel)
    channel.close()
    srv.stop(0)


@pytest.mark.parametrize("fmt", sorted(LOWER))
def test_a_lower_case_free_variable_read_as_a_constant_is_invalid_argument(server, fmt):
    _, stub = server
    with pytest.raises(grpc.RpcError) as err:
        stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=LOWER[fmt], b=LOWER[fmt], format=fmt,
                                                         free_variables=pb.FREE_VARIABLES_CONSTANT), timeout=60)
    assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "free variable 'x'" in err.value.details() and err.value.details().startswith("a: ")


def test_the_batch_answers_each_item_and_goes_on(server):
    _, stub = server
    bad = pb.CheckEquivalenceRequest(a="Man(x)", b="Man(x)", format=pb.LF_FORMAT_FOLIO,
                                     free_variables=pb.FREE_VARIABLES_CONSTANT)
    good = pb.CheckEquivalenceRequest(a="Man(John)", b="Man(John)", format=pb.LF_FORMAT_FOLIO,
                                      free_variables=pb.FREE_VARIABLES_CONSTANT)
    results = list(stub.CheckEquivalenceBatch(pb.CheckEquivalenceBatchRequest(items=[bad, good, bad]), timeout=120))
    codes = {r.index: r.status.code for r in results}
    assert codes == {0: grpc.StatusCode.INVALID_ARGUMENT.value[0], 1: 0, 2: grpc.StatusCode.INVALID_ARGUMENT.value[0]}
    assert "items[0].a" in next(r for r in results if r.index == 0).status.message
    assert next(r for r in results if r.index == 1).response.verdict == pb.VERDICT_EQUIVALENT


@pytest.mark.parametrize("fmt", [pb.LF_FORMAT_FOLIO, pb.LF_FORMAT_NLTK, pb.LF_FORMAT_TPTP])
def test_canonicalize_with_a_full_dialect_is_not_supported_here(server, fmt):
    _, stub = server
    for req in (pb.CanonicalizeRequest(lf="Man(John)", format=fmt),
                pb.CanonicalizeRequest(lf="man(John)", output_format=fmt)):
        with pytest.raises(grpc.RpcError) as err:
            stub.Canonicalize(req, timeout=60)
        assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "is not supported here" in err.value.details()


def test_every_enum_value_of_the_new_fields_answers_without_internal(server):
    _, stub = server
    formats = [v.number for v in pb.LFFormat.DESCRIPTOR.values] + [99]
    frees = [v.number for v in pb.FreeVariables.DESCRIPTOR.values] + [99]
    symbols = [v.number for v in pb.Symbols.DESCRIPTOR.values] + [99]
    texts = ["Man(x)", "man(x)", "( man x )", "all x. (Man(x) -> Mortal(x))", "p(X) & q(x)"]
    seen = set()
    for fmt, free, sym, text in itertools.product(formats, frees, symbols, texts):
        req = pb.CheckEquivalenceRequest(a=text, b=text, format=fmt, free_variables=free, symbols=sym,
                                         time_limit_ms=2000)
        try:
            stub.CheckEquivalence(req, timeout=60)
            seen.add("OK")
        except grpc.RpcError as err:
            assert err.code() is not grpc.StatusCode.INTERNAL, (fmt, free, sym, text, err.details())
            seen.add(err.code().name)
    assert {"OK", "INVALID_ARGUMENT"} <= seen


def test_check_entailment_answers_every_enum_value_without_internal(server):
    _, stub = server
    formats = [v.number for v in pb.LFFormat.DESCRIPTOR.values] + [99]
    frees = [v.number for v in pb.FreeVariables.DESCRIPTOR.values] + [99]
    symbols = [v.number for v in pb.Symbols.DESCRIPTOR.values] + [99]
    seen = set()
    for fmt, free, sym, text in itertools.product(formats, frees, symbols, ["Man(x)", "man(x)", "( man x )"]):
        req = pb.CheckEntailmentRequest(premises=[text], conclusion=text, format=fmt, free_variables=free,
                                        symbols=sym, time_limit_ms=2000)
        try:
            stub.CheckEntailment(req, timeout=60)
            seen.add("OK")
        except grpc.RpcError as err:
            assert err.code() is not grpc.StatusCode.INTERNAL, (fmt, free, sym, text, err.details())
            seen.add(err.code().name)
    assert {"OK", "INVALID_ARGUMENT"} <= seen


def test_the_client_passes_the_policy(server):
    srv, _ = server
    with Client(f"127.0.0.1:{srv.port}") as c:
        with pytest.raises(AmbitError, match="free variable 'x'"):
            c.equivalent("Man(x)", "Man(x)", fmt="folio", free_variables="constant")
        assert str(c.equivalent("Man(x)", "Man(x)", fmt="folio", free_variables="universal").verdict) == "EQUIVALENT"
