"""CheckEntailment(+Batch) and the full first-order dialects of CheckEquivalence(+Batch), through
a real gRPC server on localhost (no model) and SWI-Prolog: verdicts with their evidence, and
each malformed story answered with its own error while the others get theirs."""

from __future__ import annotations

import shutil

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from ambit import server
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

DOGS = ["∀x (Dog(x) → Animal(x))", "Dog(rex)"]


@pytest.fixture(scope="module")
def stub():
    running = server.serve(no_model=True, port=0)
    with grpc.insecure_channel(running.address) as ch:
        yield ambit_pb2_grpc.AmbitServiceStub(ch)
    running.stop(1)


def _entails(stub, premises, conclusion, fmt=pb.LF_FORMAT_UNSPECIFIED) -> pb.CheckEntailmentResponse:
    return stub.CheckEntailment(pb.CheckEntailmentRequest(
        request_id="r", premises=premises, conclusion=conclusion, format=fmt))


def _details(status) -> tuple[error_details_pb2.BadRequest, error_details_pb2.ErrorInfo]:
    br, info = error_details_pb2.BadRequest(), error_details_pb2.ErrorInfo()
    for d in status.details:
        d.Unpack(br) if d.Is(br.DESCRIPTOR) else d.Unpack(info)
    return br, info


def test_true_comes_with_a_proof_naming_the_premises(stub):
    r = _entails(stub, DOGS, "Animal(rex)")
    assert r.request_id == "r" and r.verdict == pb.ENTAILMENT_VERDICT_TRUE
    assert list(r.premises_used) == [0, 1]
    assert {s.premise_index for s in r.proof if s.source == "premise"} == {0, 1}
    assert r.proof[0].step == "start" and any(s.source == "negated_conclusion" for s in r.proof)
    assert "Animal(d1)" in r.model.true_atoms and r.model.constants["rex"] == "d1"


def test_an_equational_proof_names_what_each_step_uses(stub):
    """Pelletier 65 (x·x = e in a monoid with a left identity makes it commutative): unit
    equations, refuted by completion; each derived equation names the earlier steps it follows
    from, and the goal step closes the negated conclusion."""
    r = _entails(stub, ["![X, Y, Z]: f(f(X, Y), Z) = f(X, f(Y, Z))", "![X]: f(a, X) = X", "![X]: f(X, X) = a"],
                 "![X, Y]: f(X, Y) = f(Y, X)", pb.LF_FORMAT_TPTP)
    assert r.verdict == pb.ENTAILMENT_VERDICT_TRUE and list(r.premises_used) == [0, 1, 2]
    kinds = [s.step for s in r.proof]
    assert kinds[:3] == ["equation"] * 3 and set(kinds[3:-1]) == {"derived"} and kinds[-1] == "goal"
    assert r.proof[-1].source == "negated_conclusion"
    for i, s in enumerate(r.proof):
        assert all(u < i for u in s.uses) and (bool(s.uses) == (s.step != "equation"))


def test_uncertain_comes_with_a_countermodel_and_a_model(stub):
    r = _entails(stub, DOGS, "Cat(rex)")
    assert r.verdict == pb.ENTAILMENT_VERDICT_UNCERTAIN and not r.proof
    rex = r.countermodel.constants["rex"]
    assert f"Cat({rex})" not in r.countermodel.true_atoms and f"Dog({rex})" in r.countermodel.true_atoms
    assert f"Cat({r.model.constants['rex']})" in r.model.true_atoms


def test_false_and_inconsistent(stub):
    r = _entails(stub, [*DOGS, "∀x (Animal(x) → ¬Cat(x))"], "Cat(rex)")
    assert r.verdict == pb.ENTAILMENT_VERDICT_FALSE and r.proof
    assert "Cat(d1)" not in r.countermodel.true_atoms
    r = _entails(stub, [*DOGS, "¬Animal(rex)"], "Cat(rex)")
    assert r.verdict == pb.ENTAILMENT_VERDICT_INCONSISTENT and list(r.premises_used) == [0, 1, 2]


@pytest.mark.parametrize("fmt, premises, conclusion", [
    (pb.LF_FORMAT_NLTK, ["all x.(dog(x) -> animal(x))", "dog(rex)"], "animal(rex)"),
    (pb.LF_FORMAT_TPTP, ["![X]: (dog(X) => animal(X))", "fof(p2, axiom, dog(rex))."], "animal(rex)"),
])
def test_other_dialects(stub, fmt, premises, conclusion):
    assert _entails(stub, premises, conclusion, fmt).verdict == pb.ENTAILMENT_VERDICT_TRUE


@pytest.mark.slow
def test_unknown_names_the_budget(stub):
    # Only infinite models (a serial, irreflexive, transitive R): no finite countermodel, no proof.
    # The request gives a time limit only, and the server derives the inference budget from it
    # (logic/runtime/worker.py inference_budget): which of the two runs out first depends on the
    # machine's speed and load (a loaded machine spent the 120 s first), so either is the answer.
    r = stub.CheckEntailment(pb.CheckEntailmentRequest(
        request_id="r", premises=["∀x ∃y R(x, y)", "∀x ¬R(x, x)", "∀x ∀y ∀z (R(x, y) ∧ R(y, z) → R(x, z))"],
        conclusion="P(a)", time_limit_ms=120_000), timeout=180)
    assert r.verdict == pb.ENTAILMENT_VERDICT_UNKNOWN and r.reason
    assert r.unknown_budget in ("inference_limit", "time_limit")


def test_malformed_formula_is_invalid_argument_naming_field_and_position(stub):
    with pytest.raises(grpc.RpcError) as exc:
        _entails(stub, ["∀x (Dog(x) → Animal(x)))"], "Animal(rex)")
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    br, info = _details(rpc_status.from_call(exc.value))
    assert br.field_violations[0].field == "premises[0]" and br.field_violations[0].reason == "LF_PARSE_ERROR"
    assert info.metadata["position"] == "23" and info.metadata["format"] == "folio"
    with pytest.raises(grpc.RpcError) as exc:
        _entails(stub, DOGS, "")
    assert _details(rpc_status.from_call(exc.value))[0].field_violations[0].field == "conclusion"


def test_batch_answers_every_story_in_order_each_error_its_own(stub):
    items = [
        pb.CheckEntailmentRequest(premises=DOGS, conclusion="Animal(rex)"),
        pb.CheckEntailmentRequest(premises=[DOGS[0], "Dog(rex"], conclusion="Animal(rex)"),  # malformed
        pb.CheckEntailmentRequest(premises=DOGS, conclusion="Cat(rex)"),
        pb.CheckEntailmentRequest(premises=DOGS, conclusion="Animal(rex)", format=99),
    ]
    results = list(stub.CheckEntailmentBatch(pb.CheckEntailmentBatchRequest(items=items)))
    assert [r.index for r in results] == [0, 1, 2, 3]
    assert results[0].status.code == 0 and results[0].response.verdict == pb.ENTAILMENT_VERDICT_TRUE
    assert results[2].status.code == 0 and results[2].response.verdict == pb.ENTAILMENT_VERDICT_UNCERTAIN
    br, info = _details(results[1].status)
    assert results[1].status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert br.field_violations[0].field == "items[1].premises[1]" and info.metadata["position"] == "7"
    assert _details(results[3].status)[0].field_violations[0].field == "items[3].format"


@pytest.mark.parametrize("fmt, a, b", [
    (pb.LF_FORMAT_FOLIO, "∀x (Dog(x) → Animal(x))", "∀y (¬Animal(y) → ¬Dog(y))"),
    (pb.LF_FORMAT_NLTK, "all x.(dog(x) -> animal(x))", "all x.(-dog(x) | animal(x))"),
    (pb.LF_FORMAT_TPTP, "~(?[X]: (dog(X) & ~animal(X)))", "![X]: (dog(X) => animal(X))"),
])
def test_equivalence_in_the_full_dialects(stub, fmt, a, b):
    r = stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=a, b=b, format=fmt))
    assert r.verdict == pb.VERDICT_EQUIVALENT and r.a_entails_b and r.b_entails_a
    assert r.canonical_a and r.canonical_b


def test_equivalence_batch_in_folio_with_a_malformed_item(stub):
    items = [
        pb.CheckEquivalenceRequest(a="∀x (P(x) ⊕ Q(x))", b="∀x ((P(x) ∨ Q(x)) ∧ ¬(P(x) ∧ Q(x)))",
                                   format=pb.LF_FORMAT_FOLIO),
        pb.CheckEquivalenceRequest(a="∀x (P(x) → Q(x)", b="P(a)", format=pb.LF_FORMAT_FOLIO),
        pb.CheckEquivalenceRequest(a="∀x (P(x) → Q(x))", b="∀x (Q(x) → P(x))", format=pb.LF_FORMAT_FOLIO),
    ]
    results = list(stub.CheckEquivalenceBatch(pb.CheckEquivalenceBatchRequest(items=items)))
    assert [r.response.verdict for r in results] == [pb.VERDICT_EQUIVALENT, pb.VERDICT_UNSPECIFIED,
                                                     pb.VERDICT_NOT_EQUIVALENT]
    assert _details(results[1].status)[0].field_violations[0].field == "items[1].a"


def test_amp_only_rpcs_refuse_the_full_dialects(stub):
    with pytest.raises(grpc.RpcError) as exc:
        stub.Canonicalize(pb.CanonicalizeRequest(lf="P(a)", format=pb.LF_FORMAT_FOLIO))
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "not supported here" in exc.value.details()
    assert _details(rpc_status.from_call(exc.value))[0].field_violations[0].reason == "UNSUPPORTED_FORMAT"


def test_prolog_workers_spread_batches_with_the_same_answers(stub):
    """A server started with prolog_workers=2 runs batch chunks on two Prolog processes; every
    answer, error and evidence is the one the single-process server gives."""
    items = [pb.CheckEntailmentRequest(premises=DOGS, conclusion=c)
             for c in ("Animal(rex)", "Cat(rex)", "¬Animal(rex)", "Dog(rex")] * 10
    eq = [pb.CheckEquivalenceRequest(a="∀x (P(x) → Q(x))", b=b, format=pb.LF_FORMAT_FOLIO)
          for b in ("∀y (¬Q(y) → ¬P(y))", "∃x (P(x) ∧ ¬Q(x))", "∀x (P(x) →")] * 10
    running = server.serve(no_model=True, port=0, prolog_workers=2)
    try:
        with grpc.insecure_channel(running.address) as ch:
            pooled = ambit_pb2_grpc.AmbitServiceStub(ch)
            for call, req in ((lambda s: s.CheckEntailmentBatch, pb.CheckEntailmentBatchRequest(items=items)),
                              (lambda s: s.CheckEquivalenceBatch, pb.CheckEquivalenceBatchRequest(items=eq))):
                one = [r.SerializeToString(deterministic=True) for r in call(stub)(req)]
                two = [r.SerializeToString(deterministic=True) for r in call(pooled)(req)]
                assert len(one) == len(req.items) and two == one
    finally:
        running.stop(1)
