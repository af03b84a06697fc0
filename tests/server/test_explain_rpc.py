"""Readings explained over gRPC (issue 13): ExplainReadings and ParseDistribution's `explain`
option on a real server on localhost (stand-in model backend, real SWI-Prolog), compared with
`logic.explain` run locally; bad input is INVALID_ARGUMENT naming the field, and the service core
maps a Prolog budget run out to DEADLINE_EXCEEDED."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from ambit import logic
from ambit import server
from ambit.generators.amp.wordforms import amp_wordforms
from ambit.logic.explain import explain_readings, read, verbalise
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server.service import AmbitCore, Deadline, ExplainQuery
from tests.helpers.server import FakeBackend

ONE_DOG = "exists x . forall y . exists a . boy(y) AND dog(x) AND saw(a) AND agent(a, y) AND patient(a, x)"
EVERY_BOY = "forall x . exists y . exists a . boy(x) AND dog(y) AND saw(a) AND agent(a, x) AND patient(a, y)"
UTTERANCE = "every boy saw a dog"


@pytest.fixture(scope="module")
def stub():
    r = server.serve(backend=FakeBackend(), port=0)
    with grpc.insecure_channel(r.address) as ch:
        yield ambit_pb2_grpc.AmbitServiceStub(ch)
    r.stop(1)


def _plain(msg: pb.ExplainReadingsResponse, utterance: str, fmt: str) -> dict:
    """The message in the shape of `Explanation.to_dict()`, to compare with the library."""
    q = msg.question
    question = None if not msg.HasField("question") else {
        "text": q.text, "readings": list(q.readings), "yes_no": q.yes_no or None,
        "situation": q.situation if q.HasField("situation") else None, "answers": dict(q.answers),
    }
    return {
        "utterance": utterance, "format": fmt, "note": msg.note or None, "quantifiers": msg.quantifiers,
        "readings": [{"lf": r.lf, "paraphrase": r.paraphrase, "weight": r.weight if r.HasField("weight") else None}
                     for r in msg.readings],
        "situations": [{"holds": s.holds, "fails": s.fails, "domain": list(s.domain), "constants": dict(s.constants),
                        "facts": list(s.facts), "description": s.description, "size": s.size,
                        "searched_from": s.searched_from, "bound": s.bound} for s in msg.situations],
        "question": question,
    }


def _violation(err: grpc.RpcError) -> error_details_pb2.BadRequest.FieldViolation:
    status = rpc_status.from_call(err)
    for d in status.details:
        if d.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            d.Unpack(br)
            return br.field_violations[0]
    raise AssertionError("no BadRequest detail")


@pytest.mark.parametrize("fmt", ["fol", "lisp"])
def test_explain_readings_is_the_library_answer(stub, fmt):
    lfs = [ONE_DOG, EVERY_BOY] if fmt == "fol" else [logic.convert(x, "fol", "lisp") for x in (ONE_DOG, EVERY_BOY)]
    enum = pb.LF_FORMAT_FOL if fmt == "fol" else pb.LF_FORMAT_LISP
    resp = stub.ExplainReadings(pb.ExplainReadingsRequest(request_id="x1", utterance=UTTERANCE, lfs=lfs, format=enum))
    assert resp.request_id == "x1" and resp.quantifiers == "restricted"
    local = explain_readings(UTTERANCE, lfs, fmt, lexicon=amp_wordforms()).to_dict()
    assert _plain(resp, UTTERANCE, fmt) == local
    # each paraphrase has exactly its own reading; one situation, confirmed by the truth definition
    words = amp_wordforms()
    for r in resp.readings:
        assert logic.equivalent(read(r.paraphrase, words), logic.parse(r.lf, fmt)).verdict == "EQUIVALENT"
    [s] = resp.situations
    assert (s.holds, s.fails) == (1, 0) and s.size == len(s.domain)
    assert all(f.startswith("( ") for f in s.facts) == (fmt == "lisp")
    assert dict(resp.question.answers) == {"yes": s.holds, "no": s.fails} and resp.question.situation == 0


def test_weights_choose_the_question(stub):
    third = "exists x . exists y . exists a . boy(x) AND dog(y) AND saw(a) AND agent(a, x) AND patient(a, y)"
    resp = stub.ExplainReadings(pb.ExplainReadingsRequest(
        utterance=UTTERANCE, lfs=[ONE_DOG, EVERY_BOY, third], weights=[0.1, 0.5, 0.4]))
    assert list(resp.question.readings) == [1, 2]
    assert [r.weight for r in resp.readings] == [0.1, 0.5, 0.4]
    assert {(s.holds, s.fails) for s in resp.situations} >= {(1, 0)}


@pytest.mark.parametrize("lfs, why", [
    ([ONE_DOG], "one reading"),
    ([EVERY_BOY, "forall z . exists y . exists a . dog(y) AND boy(z) AND saw(a) AND patient(a, y) AND agent(a, z)"],
     "equivalent"),
])
def test_nothing_to_tell_apart_is_ok(stub, lfs, why):
    resp = stub.ExplainReadings(pb.ExplainReadingsRequest(utterance=UTTERANCE, lfs=lfs))
    assert not resp.situations and not resp.HasField("question")
    assert "nothing to tell apart" in resp.note and why in resp.note
    assert [r.paraphrase for r in resp.readings] == [verbalise(logic.parse(x), amp_wordforms()) for x in lfs]


def test_malformed_lf_names_field_and_index(stub):
    bad = "exists x . boy(x) AND"
    with pytest.raises(grpc.RpcError) as exc:
        stub.ExplainReadings(pb.ExplainReadingsRequest(utterance=UTTERANCE, lfs=[ONE_DOG, EVERY_BOY, bad]))
    err = exc.value
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _violation(err).field == "lfs[2]"
    info = error_details_pb2.ErrorInfo()
    status = rpc_status.from_call(err)
    assert any(d.Unpack(info) for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR))
    with pytest.raises(logic.LFParseError) as parsed:
        logic.parse(bad, "fol")
    assert info.metadata["field"] == "lfs[2]" and int(info.metadata["position"]) == parsed.value.pos
    assert stub.ExplainReadings(pb.ExplainReadingsRequest(utterance=UTTERANCE, lfs=[ONE_DOG])).readings


@pytest.mark.parametrize("request_, field", [
    (pb.ExplainReadingsRequest(utterance=UTTERANCE), "lfs"),
    (pb.ExplainReadingsRequest(lfs=[ONE_DOG]), "utterance"),
    (pb.ExplainReadingsRequest(utterance=UTTERANCE, lfs=[ONE_DOG] * 17), "lfs"),
    (pb.ExplainReadingsRequest(utterance=UTTERANCE, lfs=[ONE_DOG, EVERY_BOY], weights=[1.0]), "weights"),
    (pb.ExplainReadingsRequest(utterance=UTTERANCE, lfs=[ONE_DOG, EVERY_BOY], weights=[1.0, -1.0]), "weights[1]"),
    (pb.ExplainReadingsRequest(utterance=UTTERANCE, lfs=[ONE_DOG], format=9), "format"),
])
def test_bad_input_is_invalid_argument(stub, request_, field):
    with pytest.raises(grpc.RpcError) as exc:
        stub.ExplainReadings(request_)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _violation(exc.value).field == field


def test_parse_distribution_explained(stub):
    req = pb.ParseDistributionRequest(utterance="every man saw something", prompt="{utterance}", explain=True)
    resp = stub.ParseDistribution(req)
    classes = resp.classes
    assert len(classes) >= 2
    formulas = [logic.parse(c.canonical) for c in classes]
    words = amp_wordforms().covering(formulas)
    assert [c.paraphrase for c in classes] == [verbalise(f, words) for f in formulas]
    e = resp.explanation
    assert [r.lf for r in e.readings] == [c.canonical for c in classes[:2]]
    assert [r.weight for r in e.readings] == [c.probability_mass for c in classes[:2]]
    local = explain_readings("every man saw something", [c.canonical for c in classes[:2]], lexicon=words,
                             weights=[c.probability_mass for c in classes[:2]])
    assert _plain(e, "every man saw something", "fol") == local.to_dict()
    assert e.situations and list(e.question.readings) == [0, 1]
    plain = stub.ParseDistribution(pb.ParseDistributionRequest(utterance="u", prompt="{utterance}"))
    assert not plain.HasField("explanation") and all(not c.paraphrase for c in plain.classes)


def test_parse_distribution_one_class_has_a_paraphrase_and_no_explanation(stub):
    req = pb.ParseDistributionRequest(prompt="p", explain=True, decoding=pb.DecodingParams(beam_size=1))
    resp = stub.ParseDistribution(req)
    assert len(resp.classes) == 1 and resp.classes[0].paraphrase
    assert not resp.HasField("explanation")


def test_prolog_budget_run_out_is_named_in_the_note():
    # a scene search cut by its budget is named (issue 31: the explanation still comes back)
    core = AmbitCore()
    query = ExplainQuery(UTTERANCE, (ONE_DOG, EVERY_BOY), time_limit_s=1e-6)
    e = core.explain_readings(query, Deadline())
    assert e.readings and "ran out of its Prolog budget" in e.note
    assert core.explain_readings(ExplainQuery(UTTERANCE, (ONE_DOG, EVERY_BOY)), Deadline()).situations


def test_no_model_server_explains_readings():
    r = server.serve(no_model=True, port=0)
    try:
        with grpc.insecure_channel(r.address) as ch:
            s = ambit_pb2_grpc.AmbitServiceStub(ch)
            resp = s.ExplainReadings(pb.ExplainReadingsRequest(utterance=UTTERANCE, lfs=[ONE_DOG, EVERY_BOY]))
            assert resp.situations and resp.question.yes_no
            with pytest.raises(grpc.RpcError) as exc:
                s.ParseDistribution(pb.ParseDistributionRequest(prompt="p", explain=True))
            assert exc.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    finally:
        r.stop(0)
