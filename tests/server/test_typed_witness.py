"""Typed witnesses on the wire (issue 58): CheckEquivalence's evidence as messages (`witness`:
an EquivalenceWitness with its Proofs and Model) beside `witness_json` (deprecated, still
filled), carrying the same evidence for every kind of verdict through a real server; the
Python client returns the same objects as before, from the JSON or from the typed witness
alone; entailment's FiniteModel gets each predicate's tuples; the client's enums take their
short names and the proto's own."""

from __future__ import annotations

import json

import grpc
import pytest

from ambit.client import results as wire
from ambit.client.api import Client
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc as pb_grpc
from ambit.server import serve
from ambit.server.convert.logic import extensions

PAIRS = [  # (a, b, format): every kind of evidence
    ("exists x . man(x)", "exists y . man(y)", pb.LF_FORMAT_FOL),                       # canonical
    ("exists x . forall y . saw(x, y)", "forall y . exists x . saw(x, y)", pb.LF_FORMAT_FOL),  # model, extensions
    ("p", "-p", pb.LF_FORMAT_NLTK),                                                    # 0-ary model
    ("f(a) = b & P(f(a))", "P(b) & f(a) = b", pb.LF_FORMAT_NLTK),                      # connection proofs
    ("all x.(P(x) -> Q(x))", "all x.(-Q(x) -> -P(x))", pb.LF_FORMAT_NLTK),             # propositional
    ("∀x (Likes(x, f(x)))", "Likes(a, b)", pb.LF_FORMAT_FOLIO),                        # functions
]


@pytest.fixture(scope="module")
def server():
    srv = serve(model="none", port=0)
    channel = grpc.insecure_channel(f"127.0.0.1:{srv.port}")
    yield srv, pb_grpc.AmbitServiceStub(channel)
    channel.close()
    srv.stop(0)


def _typed_matches_json(r: pb.CheckEquivalenceResponse) -> dict:
    """The typed witness holds what witness_json holds, field by field."""
    w = json.loads(r.witness_json)
    t = r.witness
    for key in ("method", "method_a_entails_b", "method_b_entails_a", "direction", "true_in_model",
                "false_in_model", "reason"):
        assert getattr(t, key) == w.get(key, ""), key
    for key in ("proof_a_entails_b", "proof_b_entails_a"):
        assert t.HasField(key) == (key in w)
        if key in w:
            assert [s.step for s in getattr(t, key).steps] == [s["step"] for s in w[key]]
            assert wire.proof_steps(getattr(t, key)) == w[key]
    assert t.HasField("model") == isinstance(w.get("model"), dict)
    if isinstance(w.get("model"), dict):
        m = w["model"]
        assert list(t.model.domain) == m["domain"] and dict(t.model.constants) == m["constants"]
        assert list(t.model.true_atoms) == m["true_atoms"] and dict(t.model.functions) == m.get("functions", {})
        got = {e.predicate: [list(x.elements) for x in e.tuples] for e in t.model.extensions}
        assert got == extensions(m)
        assert all(e.arity == len(e.tuples[0].elements) for e in t.model.extensions if e.tuples)
    assert json.loads(t.reading_json) == w["reading"]
    return w


@pytest.mark.parametrize("a, b, fmt", PAIRS)
def test_the_typed_witness_holds_the_json_witness(server, a, b, fmt):
    _, stub = server
    r = stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=a, b=b, format=fmt, time_limit_ms=20000), timeout=60)
    assert r.witness_json and r.HasField("witness")
    w = _typed_matches_json(r)
    if r.verdict == pb.VERDICT_NOT_EQUIVALENT:
        assert r.witness.direction in ("a_entails_b", "b_entails_a") and r.witness.HasField("model")
    if "proof_a_entails_b" in w:
        assert r.witness.proof_a_entails_b.steps[0].step == "start"


def test_an_unknown_verdict_gives_its_reason(server):
    _, stub = server
    a = "all x. all y. all z. (R(x, y) & R(y, z) -> R(x, z)) & all x. exists y. R(x, y) & all x. -R(x, x)"
    r = stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=a, b="exists x. R(x, x)", format=pb.LF_FORMAT_NLTK,
                                                         time_limit_ms=300), timeout=60)
    if r.verdict == pb.VERDICT_UNKNOWN:
        assert r.witness.reason in ("time_limit", "inference_limit", "memory_limit", "domain_limit")
    _typed_matches_json(r)


def test_the_client_returns_the_same_objects(server):
    srv, _ = server
    with Client(f"127.0.0.1:{srv.port}") as client:
        for a, b, fmt in PAIRS:
            name = pb.LFFormat.Name(fmt)
            v = client.equivalent(a, b, fmt=name)  # the proto's own name is taken too
            short = client.equivalent(a, b, fmt=name.removeprefix("LF_FORMAT_").lower())
            assert v.witness == short.witness and isinstance(v.witness, dict)


def test_the_client_rebuilds_the_witness_from_the_typed_one(server):
    """A server that sends the typed witness alone (witness_json gone, a later release) gives the
    client the same dict, up to what only the JSON said (the portfolio's `reasons`, `tstp`)."""
    from ambit.client.results import _equivalence

    _, stub = server
    for a, b, fmt in PAIRS:
        r = stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=a, b=b, format=fmt, time_limit_ms=20000), timeout=60)
        full = _equivalence(r).witness
        r.ClearField("witness_json")
        rebuilt = _equivalence(r).witness
        for key, value in rebuilt.items():
            if key == "model":
                assert {k: value[k] for k in ("domain", "constants", "true_atoms")} == \
                       {k: full[key][k] for k in ("domain", "constants", "true_atoms")}
            else:
                assert value == full[key], key
        assert set(full) - set(rebuilt) <= {"parts", "reasons", "tstp", "unchecked", "saturation"}


def test_entailment_models_carry_extensions(server):
    _, stub = server
    r = stub.CheckEntailment(pb.CheckEntailmentRequest(premises=["Likes(a, b)"], conclusion="Likes(b, a)",
                                                       format=pb.LF_FORMAT_FOLIO), timeout=60)
    assert r.verdict == pb.ENTAILMENT_VERDICT_UNCERTAIN
    ext = {e.predicate: [list(t.elements) for t in e.tuples] for e in r.countermodel.extensions}
    assert ext == extensions({"true_atoms": list(r.countermodel.true_atoms)}) and ext["Likes"]


def test_the_client_takes_short_names_and_the_protos_own():
    assert wire.fmt("nltk") == wire.fmt("LF_FORMAT_NLTK") == wire.fmt("NLTK") == pb.LF_FORMAT_NLTK
    assert wire.free("universal") == wire.free("FREE_VARIABLES_UNIVERSAL") == pb.FREE_VARIABLES_UNIVERSAL
    assert wire.symbols("SYMBOLS_SEPARATE") == pb.SYMBOLS_SEPARATE
    assert wire.var_naming("VAR_NAMING_V") == pb.VAR_NAMING_V and wire.strategy("sample") == pb.DECODING_STRATEGY_SAMPLE
    for bad in ("LF_FORMAT_UNSPECIFIED", "ladr", "VERDICT_EQUIVALENT"):
        with pytest.raises(ValueError, match="format must be one of"):
            wire.fmt(bad)


def test_the_proto_marks_the_json_string_deprecated():
    field = pb.CheckEquivalenceResponse.DESCRIPTOR.fields_by_name["witness_json"]
    assert field.GetOptions().deprecated
    assert pb.CheckEquivalenceResponse.DESCRIPTOR.fields_by_name["witness"].message_type.name == "EquivalenceWitness"
    assert {f.name for f in pb.Model.DESCRIPTOR.fields} >= {"domain", "constants", "extensions"}
    assert {f.name for f in pb.Proof.DESCRIPTOR.fields} == {"steps", "premises_used"}
