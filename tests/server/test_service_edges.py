"""What a new client meets first, on a real localhost server (stand-in model backend):
candidates in the order of the probability the response reports, a request with only an
utterance parsed with the default prompt, reflection under v1 and v1alpha, and the default
port."""

from __future__ import annotations

import socket
from dataclasses import dataclass

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2

from ambit import server
from ambit.client.connect import DEFAULT_PORT, connect, with_default_port
from ambit.generators import amp
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server.__main__ import parse_args
from ambit.server.service.prompting import default_prompt
from tests.helpers.server import FakeBackend, FakeHypothesis

# decoder order on purpose unlike probability order, with a tie broken by min_prob
BEAM = [("exists x . man(x)", -2.0, 0.5), ("forall x . man(x)", -1.0, 0.6),
        ("exists y . dog(y)", -2.0, 0.9), ("exists x . saw(x, x)", -0.5, 0.7)]


@dataclass
class UnorderedBackend(FakeBackend):
    """Returns ``BEAM`` as the decoder would rank it by its own score, not by probability."""

    def decode(self, prompt, fmt, params, grammar, should_stop):
        self.decoded.append((prompt, grammar))
        return [FakeHypothesis(t, lp, [mp], [t], mp) for t, lp, mp in BEAM]


@pytest.fixture(scope="module")
def running():
    backend = UnorderedBackend()
    r = server.serve(backend=backend, port=0)
    r.wait_ready(30)
    yield r, backend
    r.stop(0)


def _parse(address: str, **fields) -> pb.ParseDistributionResponse:
    with grpc.insecure_channel(address) as ch:
        return ambit_pb2_grpc.AmbitServiceStub(ch).ParseDistribution(pb.ParseDistributionRequest(**fields))


def test_candidates_come_in_order_of_reported_probability(running):
    r, _ = running
    got = _parse(r.address, utterance="u", prompt="{utterance}").candidates
    probs = [c.probability for c in got]
    assert probs == sorted(probs, reverse=True) and sum(probs) == pytest.approx(1)
    # the two at logprob -2 tie on probability: the higher min_prob comes first
    assert [c.text for c in got] == ["exists x . saw(x, x)", "forall x . man(x)",
                                     "exists y . dog(y)", "exists x . man(x)"]
    for cls in _parse(r.address, utterance="u", prompt="{utterance}").classes:
        assert all(0 <= i < len(got) for i in cls.member_indices)


def test_utterance_alone_is_parsed_with_the_default_prompt_over_all_types(running):
    r, backend = running
    got = _parse(r.address, utterance="every man saw a dog")
    assert got.prompt == default_prompt("every man saw a dog", "fol") == backend.decoded[-1][0]
    assert got.prompt.endswith("Human: every man saw a dog\nComputer:")
    for t in amp.AMBIGUOUS_TYPES:
        shown = [p for p in amp.pairs(t) if f"Human: {p['surface']}\n" in got.prompt]
        assert shown, f"no {t} example in the default prompt"
    readings = [amp.render_lf(p[f"lf{i}"], "fol", True) for t in amp.AMBIGUOUS_TYPES
                for p in amp.pairs(t) if f"Human: {p['surface']}\n" in got.prompt for i in (0, 1)]
    assert sum(f"Computer: {lf}\n" in got.prompt for lf in readings) == 2 * len(amp.AMBIGUOUS_TYPES)


def test_empty_request_names_the_utterance(running):
    r, _ = running
    with pytest.raises(grpc.RpcError) as err:
        _parse(r.address)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "utterance" in err.value.details()


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_is_served_as_v1_and_v1alpha(running, version):
    r, _ = running
    with grpc.insecure_channel(r.address) as ch:
        call = ch.stream_stream(f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
                                request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                                response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
        listed, described = call(iter([
            reflection_pb2.ServerReflectionRequest(list_services=""),
            reflection_pb2.ServerReflectionRequest(file_containing_symbol="ambit.v1.AmbitService")]))
    names = {s.name for s in listed.list_services_response.service}
    assert {"ambit.v1.AmbitService", "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection"} <= names
    assert described.file_descriptor_response.file_descriptor_proto


def test_address_without_port_gets_the_server_default():
    assert parse_args([]).port == DEFAULT_PORT == 50051
    assert with_default_port("localhost") == "localhost:50051"
    assert with_default_port("a,b:7,[::1],::1,dns:///h:9") == "a:50051,b:7,[::1]:50051,[::1]:50051,dns:///h:9"


def test_client_dials_localhost_without_port_on_the_default_port():
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", DEFAULT_PORT)) == 0:
            pytest.skip(f"port {DEFAULT_PORT} is in use here")
    r = server.serve(backend=FakeBackend(), port=DEFAULT_PORT)
    try:
        r.wait_ready(30)
        with connect("localhost", timeout=10) as client:
            assert client.info().model_id == "fake-model"
    finally:
        r.stop(0)
