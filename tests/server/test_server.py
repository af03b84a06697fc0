"""The gRPC server in-process with a stand-in model backend: every RPC through the generated
stubs, the documented error codes, dynamic batching, the bounded queue, deadlines, health,
reflection. (The real-model, real-process tests are in test_server_process.py.)"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from ambit import logic
from ambit import server
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server.guard.limits import Limits
from tests.helpers.server import FakeBackend

LF = "exists x . forall y . man(x) AND saw(x, y)"


@pytest.fixture(scope="module")
def backend():
    return FakeBackend()


@pytest.fixture(scope="module")
def running(backend):
    r = server.serve(backend=backend, port=0, max_batch=8, batch_wait_ms=20)
    yield r
    r.stop(1)


@pytest.fixture(scope="module")
def stub(running):
    with grpc.insecure_channel(running.address) as ch:
        yield ambit_pb2_grpc.AmbitServiceStub(ch)


def _bad_request(err: grpc.RpcError) -> error_details_pb2.BadRequest:
    status = rpc_status.from_call(err)
    assert status is not None, "no rich status details"
    for d in status.details:
        if d.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            d.Unpack(br)
            return br
    raise AssertionError("no BadRequest detail")


def _error(call, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as exc:
        call(*args, **kwargs)
    return exc.value


# --------------------------------------------------------------------------- happy paths


def test_model_info_and_limits(stub):
    info = stub.GetModelInfo(pb.GetModelInfoRequest(request_id="i1"))
    assert info.request_id == "i1"
    assert (info.model_id, info.device, info.dtype, info.vocab_size) == ("fake-model", "cpu", "float32", 257)
    assert list(info.formats) == ["fol", "lisp", "folio", "nltk", "tptp", "prover9"] and info.model_loaded  # every format read
    assert info.limits.max_candidates == Limits().max_candidates and info.max_batch == 8
    assert info.server_id


def test_score_candidates(stub):
    resp = stub.ScoreCandidates(
        pb.ScoreCandidatesRequest(request_id="s1", prompt="P:", candidates=["exists x", "forall x"], end_marker=True)
    )
    assert resp.request_id == "s1" and resp.model_id == "fake-model"
    assert [s.text for s in resp.scores] == ["exists x", "forall x"]
    s = resp.scores[0]
    assert list(s.tokens) == ["exists", "x"] and len(s.token_probs) == 2 and len(s.token_ids) == 2
    assert s.min_prob == min(s.token_probs) and s.HasField("end_logprob")
    plain = stub.ScoreCandidates(pb.ScoreCandidatesRequest(prompt="P:", candidates=["a"]))
    assert not plain.scores[0].HasField("end_logprob")


def test_score_batch_streams_every_item_with_its_own_status(stub):
    items = [pb.ScoreCandidatesRequest(request_id=f"r{i}", prompt=f"P{i}:", candidates=["a b"]) for i in range(10)]
    items[3] = pb.ScoreCandidatesRequest(request_id="bad", prompt="", candidates=["a"])  # empty prompt
    items[6] = pb.ScoreCandidatesRequest(request_id="boom", prompt="<<crash>>", candidates=["a"])  # engine fault
    results = list(stub.ScoreCandidatesBatch(pb.ScoreCandidatesBatchRequest(request_id="b", items=items)))
    assert sorted(r.index for r in results) == list(range(10))
    by_index = {r.index: r for r in results}
    assert by_index[3].status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "items[3].prompt" in by_index[3].status.message
    assert by_index[6].status.code == grpc.StatusCode.INTERNAL.value[0]
    for i in set(range(10)) - {3, 6}:
        assert by_index[i].status.code == 0 and by_index[i].response.request_id == f"r{i}"


def test_canonicalize(stub):
    resp = stub.Canonicalize(pb.CanonicalizeRequest(request_id="c", lf="exists y . man(y) AND walk(y)"))
    assert resp.request_id == "c" and resp.format == pb.LF_FORMAT_FOL
    assert resp.canonical == logic.canonical_form("exists y . man(y) AND walk(y)", "fol")
    lisp = stub.Canonicalize(
        pb.CanonicalizeRequest(lf="exists y . man(y)", output_format=pb.LF_FORMAT_LISP, var_naming=pb.VAR_NAMING_V)
    )
    assert lisp.format == pb.LF_FORMAT_LISP and lisp.canonical == "( exists v0 ( man v0 ) )"


def test_parse_distribution_candidates_and_classes(stub):
    resp = stub.ParseDistribution(
        pb.ParseDistributionRequest(
            request_id="p", utterance="a man saw everyone", prompt="Sentence: {utterance}\nLF:",
            decoding=pb.DecodingParams(beam_size=4),
        )
    )
    assert resp.request_id == "p" and resp.prompt == "Sentence: a man saw everyone\nLF:"
    cands = resp.candidates
    assert len(cands) == 4
    assert abs(sum(c.probability for c in cands) - 1.0) < 1e-9
    assert [c.parse_status for c in cands[:3]] == [pb.PARSE_STATUS_OK] * 3
    assert cands[3].parse_status == pb.PARSE_STATUS_INVALID and cands[3].parse_error.column > 0
    assert cands[0].canonical == cands[1].canonical  # alpha-variants
    # the alpha-variants share a class; the other scope reading is its own class
    assert cands[0].meaning_class == cands[1].meaning_class != cands[2].meaning_class
    first = resp.classes[cands[0].meaning_class]
    assert sorted(first.member_indices) == [0, 1]
    assert abs(first.probability_mass - cands[0].probability - cands[1].probability) < 1e-9
    assert abs(sum(c.probability_mass for c in resp.classes) + resp.unparsed_mass - 1.0) < 1e-9
    assert cands[3].meaning_class == -1


def test_parse_distribution_lisp_and_sampling(stub):
    resp = stub.ParseDistribution(
        pb.ParseDistributionRequest(
            prompt="LF:", format=pb.LF_FORMAT_LISP,
            decoding=pb.DecodingParams(strategy=pb.DECODING_STRATEGY_SAMPLE, num_samples=3, temperature=0.7, seed=1),
        )
    )
    assert len(resp.candidates) == 3 and resp.candidates[0].canonical.startswith("( exists")


def test_check_equivalence(stub):
    same = stub.CheckEquivalence(
        pb.CheckEquivalenceRequest(request_id="e", a="exists x . man(x) AND walk(x)", b="exists y . walk(y) AND man(y)")
    )
    assert same.request_id == "e" and same.verdict == pb.VERDICT_EQUIVALENT
    assert same.a_entails_b and same.b_entails_a
    diff = stub.CheckEquivalence(
        pb.CheckEquivalenceRequest(a="exists x . forall y . saw(x, y)", b="forall y . exists x . saw(x, y)")
    )
    assert diff.verdict == pb.VERDICT_NOT_EQUIVALENT
    assert diff.HasField("a_entails_b") and diff.a_entails_b and not diff.b_entails_a
    assert diff.witness_json == "" or isinstance(json.loads(diff.witness_json), (dict, list))


def test_check_equivalence_batch(stub):
    items = [
        pb.CheckEquivalenceRequest(a="exists x . man(x)", b="exists y . man(y)"),
        pb.CheckEquivalenceRequest(a="exists x . man(x) AND", b="exists y . man(y)"),
        pb.CheckEquivalenceRequest(a="exists x . man(x)", b="exists x . woman(x)"),
    ]
    results = {r.index: r for r in stub.CheckEquivalenceBatch(pb.CheckEquivalenceBatchRequest(items=items))}
    assert set(results) == {0, 1, 2}
    assert results[0].response.verdict == pb.VERDICT_EQUIVALENT
    assert results[1].status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0] and "items[1].a" in results[1].status.message
    assert results[2].response.verdict == pb.VERDICT_NOT_EQUIVALENT


def test_stats_count_requests_per_method(stub):
    before = stub.GetStats(pb.GetStatsRequest()).methods["Canonicalize"].requests
    for _ in range(3):
        stub.Canonicalize(pb.CanonicalizeRequest(lf=LF))
    stats = stub.GetStats(pb.GetStatsRequest(request_id="g"))
    assert stats.request_id == "g" and stats.methods["Canonicalize"].requests == before + 3
    assert stats.uptime_seconds > 0


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "call,request_,field,fragment",
    [
        ("Canonicalize", pb.CanonicalizeRequest(lf="exists x . man(x) AND"), "lf", "character"),
        ("Canonicalize", pb.CanonicalizeRequest(lf=""), "lf", "empty"),
        ("Canonicalize", pb.CanonicalizeRequest(lf="man(x)" * 1000), "lf", "limit"),
        ("Canonicalize", pb.CanonicalizeRequest(lf=LF, format=7), "format", "unknown LFFormat"),
        ("Canonicalize", pb.CanonicalizeRequest(lf=LF, var_naming=9), "var_naming", "unknown VarNaming"),
        ("CheckEquivalence", pb.CheckEquivalenceRequest(a=LF, b="forall y ."), "b", "character"),
        ("ScoreCandidates", pb.ScoreCandidatesRequest(prompt="", candidates=["a"]), "prompt", "empty"),
        ("ScoreCandidates", pb.ScoreCandidatesRequest(prompt="p", candidates=[]), "candidates", "at least one"),
        ("ScoreCandidates", pb.ScoreCandidatesRequest(prompt="p", candidates=["a", ""]), "candidates[1]", "empty"),
        ("ScoreCandidates", pb.ScoreCandidatesRequest(prompt="p", candidates=["a"] * 257), "candidates", "limit"),
        ("ScoreCandidates", pb.ScoreCandidatesRequest(prompt="p" * 70_000, candidates=["a"]), "prompt", "limit"),
        ("ParseDistribution", pb.ParseDistributionRequest(), "utterance", "prompt_spec"),
        ("ParseDistribution", pb.ParseDistributionRequest(prompt="p", format=5), "format", "unknown"),
        (
            "ParseDistribution",
            pb.ParseDistributionRequest(prompt="p", decoding=pb.DecodingParams(beam_size=1000)),
            "decoding.beam_size", "limit",
        ),
        (
            "ParseDistribution",
            pb.ParseDistributionRequest(prompt="p", decoding=pb.DecodingParams(strategy=42)),
            "decoding.strategy", "unknown DecodingStrategy",
        ),
        (
            "ParseDistribution",
            pb.ParseDistributionRequest(
                prompt="p", decoding=pb.DecodingParams(closed_vocabulary=True, vocabulary=pb.Vocabulary(unary=["man"]))
            ),
            "decoding.vocabulary", "",
        ),
        ("ScoreCandidatesBatch", pb.ScoreCandidatesBatchRequest(), "items", "at least one"),
    ],
)
def test_bad_input_is_invalid_argument_with_the_field(stub, call, request_, field, fragment):
    method = getattr(stub, call)
    if call.endswith("Batch"):
        err = _error(lambda r: list(method(r)), request_)
    else:
        err = _error(method, request_)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, err.details()
    violations = _bad_request(err).field_violations
    assert violations[0].field == field
    assert fragment in violations[0].description or fragment in err.details()
    # the server still answers a valid request
    assert stub.Canonicalize(pb.CanonicalizeRequest(lf=LF)).canonical


def test_malformed_lf_reports_position(stub):
    text = "exists x . man(x) AND"
    err = _error(stub.Canonicalize, pb.CanonicalizeRequest(lf=text))
    status = rpc_status.from_call(err)
    info = error_details_pb2.ErrorInfo()
    assert any(d.Unpack(info) for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR))
    with pytest.raises(logic.LFParseError) as exc:
        logic.parse(text, "fol")
    assert info.metadata["field"] == "lf" and int(info.metadata["position"]) == exc.value.pos
    assert f"character {exc.value.column}" in _bad_request(err).field_violations[0].description


def test_internal_fault_is_internal_and_server_keeps_serving(stub):
    err = _error(stub.ScoreCandidates, pb.ScoreCandidatesRequest(prompt="<<crash>>", candidates=["a"]))
    assert err.code() == grpc.StatusCode.INTERNAL and "simulated" not in err.details()
    err = _error(stub.ParseDistribution, pb.ParseDistributionRequest(prompt="<<crash>>"))
    assert err.code() == grpc.StatusCode.INTERNAL
    assert stub.ScoreCandidates(pb.ScoreCandidatesRequest(prompt="p", candidates=["a"])).scores


def test_no_model_server_answers_logic_and_refuses_model_rpcs():
    r = server.serve(no_model=True, port=0)
    try:
        with grpc.insecure_channel(r.address) as ch:
            s = ambit_pb2_grpc.AmbitServiceStub(ch)
            assert not s.GetModelInfo(pb.GetModelInfoRequest()).model_loaded
            assert s.Canonicalize(pb.CanonicalizeRequest(lf=LF)).canonical
            err = _error(s.ScoreCandidates, pb.ScoreCandidatesRequest(prompt="p", candidates=["a"]))
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    finally:
        r.stop(0)


# --------------------------------------------------------------------------- concurrency


def test_concurrent_scoring_is_batched(running, stub, backend):
    backend.calls.clear()
    n = 24
    with ThreadPoolExecutor(n) as pool:
        results = list(
            pool.map(lambda i: stub.ScoreCandidates(pb.ScoreCandidatesRequest(prompt=f"p{i}", candidates=["a"])), range(n))
        )
    assert all(len(r.scores) == 1 for r in results)
    assert sum(backend.calls) == n
    assert max(backend.calls) > 1 and len(backend.calls) < n  # several requests per model call
    assert max(backend.calls) <= 8  # max_batch


def test_queue_full_is_resource_exhausted():
    slow = FakeBackend(delay=0.3)
    r = server.serve(backend=slow, port=0, max_batch=1, batch_wait_ms=0, limits=Limits(max_queue=2))
    try:
        with grpc.insecure_channel(r.address) as ch:
            s = ambit_pb2_grpc.AmbitServiceStub(ch)
            codes = []
            lock = threading.Lock()

            def one(i):
                try:
                    s.ScoreCandidates(pb.ScoreCandidatesRequest(prompt=f"p{i}", candidates=["a"]), timeout=10)
                    code = grpc.StatusCode.OK
                except grpc.RpcError as e:
                    code = e.code()
                with lock:
                    codes.append(code)

            threads = [threading.Thread(target=one, args=(i,)) for i in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes and grpc.StatusCode.OK in codes
            assert set(codes) <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}
            assert s.GetStats(pb.GetStatsRequest()).rejected >= 1
    finally:
        r.stop(0)


def test_deadline_cancels_queued_work():
    slow = FakeBackend(delay=0.5)
    r = server.serve(backend=slow, port=0, max_batch=1, batch_wait_ms=0)
    try:
        with grpc.insecure_channel(r.address) as ch:
            s = ambit_pb2_grpc.AmbitServiceStub(ch)
            blocker = s.ScoreCandidates.future(pb.ScoreCandidatesRequest(prompt="first", candidates=["a"]))
            time.sleep(0.05)
            err = _error(s.ScoreCandidates, pb.ScoreCandidatesRequest(prompt="late", candidates=["a"]), timeout=0.2)
            assert err.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            blocker.result()
            time.sleep(0.6)
            assert slow.calls == [1]  # the expired request never reached the model
            # a decode whose deadline passes is stopped, not left running
            t0 = time.monotonic()
            slow.delay = 5.0
            err = _error(s.ParseDistribution, pb.ParseDistributionRequest(prompt="p"), timeout=0.5)
            assert err.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            slow.delay = 0.0
            assert s.ScoreCandidates(pb.ScoreCandidatesRequest(prompt="p", candidates=["a"]), timeout=5).scores
            assert time.monotonic() - t0 < 3.0
    finally:
        r.stop(0)


# --------------------------------------------------------------------------- health, reflection, shutdown


def test_health_serving_then_not_serving_while_draining():
    r = server.serve(backend=FakeBackend(), port=0)
    with grpc.insecure_channel(r.address) as ch:
        h = health_pb2_grpc.HealthStub(ch)
        for name in ("", "ambit.v1.AmbitService"):
            assert h.Check(health_pb2.HealthCheckRequest(service=name)).status == health_pb2.HealthCheckResponse.SERVING
        r.drain()
        assert h.Check(health_pb2.HealthCheckRequest()).status == health_pb2.HealthCheckResponse.NOT_SERVING
    r.stop(0)


def test_health_not_serving_until_loaded():
    gate = threading.Event()

    class SlowLoad(FakeBackend):
        def info(self):
            gate.wait(10)
            return super().info()

    r = server.serve(backend=SlowLoad(), port=0, wait=False)
    try:
        with grpc.insecure_channel(r.address) as ch:
            h = health_pb2_grpc.HealthStub(ch)
            assert h.Check(health_pb2.HealthCheckRequest()).status == health_pb2.HealthCheckResponse.NOT_SERVING
            gate.set()
            r.wait_ready(10)
            assert h.Check(health_pb2.HealthCheckRequest()).status == health_pb2.HealthCheckResponse.SERVING
    finally:
        r.stop(0)


def test_reflection_lists_and_describes_the_service(running):
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
    from google.protobuf.descriptor_pool import DescriptorPool

    with grpc.insecure_channel(running.address) as ch:
        db = ProtoReflectionDescriptorDatabase(ch)
        services = set(db.get_services())
        assert {"ambit.v1.AmbitService", "grpc.health.v1.Health"} <= services
        pool = DescriptorPool(db)
        svc = pool.FindServiceByName("ambit.v1.AmbitService")
        assert {m.name for m in svc.methods} >= {
            "ParseDistribution", "ScoreCandidates", "ScoreCandidatesBatch", "CheckEquivalence",
            "CheckEquivalenceBatch", "Canonicalize", "VerifyRADD", "GetModelInfo", "GetStats",
        }


def test_stop_lets_in_flight_requests_finish():
    slow = FakeBackend(delay=0.5)
    r = server.serve(backend=slow, port=0)
    with grpc.insecure_channel(r.address) as ch:
        s = ambit_pb2_grpc.AmbitServiceStub(ch)
        fut = s.ScoreCandidates.future(pb.ScoreCandidatesRequest(prompt="p", candidates=["a"]))
        time.sleep(0.1)
        r.stop(grace=5)
        assert fut.result().scores


# --------------------------------------------------------------------------- RADD, prompt specs, vocabulary

from tests.helpers.radd import RADD_INSTANCE  # noqa: E402


def test_verify_radd_structured_and_text(stub):
    from ambit.generators.radd import RaddInstance, render_prompt

    structured = stub.VerifyRADD(pb.VerifyRADDRequest(request_id="r", instance_json=json.dumps(RADD_INSTANCE)))
    assert structured.request_id == "r"
    assert structured.answer == "2" and structured.answer_option == 2 and structured.status == "one"
    verdicts = {i.label: i for i in structured.interpretations}
    assert verdicts["2"].verdict == pb.CONSISTENCY_CONSISTENT and verdicts["2"].reading == "de_dicto"
    assert verdicts["1"].verdict == pb.CONSISTENCY_INCONSISTENT and verdicts["1"].relation == "Esplugues de Llobregat"
    assert structured.derivation and json.loads(structured.details_json)["answer_option"] == 2
    text = render_prompt(RaddInstance.from_dict(RADD_INSTANCE))
    from_text = stub.VerifyRADD(pb.VerifyRADDRequest(text=text))
    assert from_text.answer == "2" and list(from_text.derivation) == list(structured.derivation)


@pytest.mark.parametrize(
    "request_,field",
    [
        (pb.VerifyRADDRequest(), "text"),
        (pb.VerifyRADDRequest(text="Premises: nothing"), "text"),
        (pb.VerifyRADDRequest(instance_json="{not json"), "instance_json"),
        (pb.VerifyRADDRequest(instance_json='{"pair": "x"}'), "instance_json"),
    ],
)
def test_verify_radd_bad_input(stub, request_, field):
    err = _error(stub.VerifyRADD, request_)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _bad_request(err).field_violations[0].field == field


def test_parse_distribution_prompt_spec(stub, backend):
    for spec in (
        pb.PromptSpec(setting=pb.PROMPT_SETTING_ZEROSHOT, type="scope", seed=3),
        pb.PromptSpec(setting=pb.PROMPT_SETTING_FEWSHOT, type="scope", ratio=0.3, seed=3, num_examples=4),
    ):
        resp = stub.ParseDistribution(
            pb.ParseDistributionRequest(utterance="every dog chased a cat", prompt_spec=spec)
        )
        assert resp.prompt.endswith("Human: every dog chased a cat\nComputer:")
        assert resp.prompt.count("Human: ") > 1 and resp.candidates
    fewshot = resp.prompt
    assert fewshot.count("Human: ") == 5  # 4 demonstrations + the utterance
    err = _error(
        stub.ParseDistribution,
        pb.ParseDistributionRequest(utterance="u", prompt_spec=pb.PromptSpec(type="no-such-type")),
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and _bad_request(err).field_violations[0].field == "prompt_spec.type"
    err = _error(stub.ParseDistribution, pb.ParseDistributionRequest(prompt_spec=pb.PromptSpec(type="scope")))
    assert _bad_request(err).field_violations[0].field == "utterance"


def test_closed_vocabulary_reaches_the_decoder(stub, backend):
    backend.decoded.clear()
    stub.ParseDistribution(pb.ParseDistributionRequest(prompt="p", decoding=pb.DecodingParams(closed_vocabulary=True)))
    stub.ParseDistribution(
        pb.ParseDistributionRequest(
            prompt="p",
            decoding=pb.DecodingParams(
                closed_vocabulary=True, vocabulary=pb.Vocabulary(unary=["man"], binary=["saw"], constants=["Mary"])
            ),
        )
    )
    stub.ParseDistribution(pb.ParseDistributionRequest(prompt="p"))
    (_, amp_grammar), (_, own_grammar), (_, open_grammar) = backend.decoded
    assert "Galileo" in amp_grammar  # the AmP lexicon
    assert own_grammar and '"Mary"' in own_grammar and '"Galileo"' not in own_grammar
    assert open_grammar is None
