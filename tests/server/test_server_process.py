"""`ambit serve` as a real process on localhost (`--port 0`): health, reflection, every RPC
through the generated stubs with a small real model, bad input, graceful SIGTERM shutdown."""

from __future__ import annotations

import json
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from tests.helpers.server import ServerProcess, tiny_gpt2_folder
from tests.helpers.radd import RADD_INSTANCE

PROMPT = "Human: a man walked\nComputer:"


def _serving(channel: grpc.Channel, service: str = "") -> int:
    return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


def test_logic_only_server_process_starts_serves_and_stops_on_sigterm():
    proc = ServerProcess("--no-model", "--grace", "2", ready_timeout=60)
    try:
        assert proc.port > 0 and proc.address.startswith("127.0.0.1:")
        with proc.channel() as ch:
            assert _serving(ch) == health_pb2.HealthCheckResponse.SERVING
            stub = ambit_pb2_grpc.AmbitServiceStub(ch)
            assert stub.Canonicalize(pb.CanonicalizeRequest(lf="exists y . man(y)"), timeout=10).canonical == (
                "exists x . man(x)"
            )
            err = None
            try:
                stub.ScoreCandidates(pb.ScoreCandidatesRequest(prompt="p", candidates=["a"]), timeout=10)
            except grpc.RpcError as e:
                err = e
            assert err is not None and err.code() == grpc.StatusCode.FAILED_PRECONDITION
        t0 = time.monotonic()
        assert proc.terminate(timeout=15) == 0
        assert time.monotonic() - t0 < 10
        assert "rpc method=Canonicalize code=OK" in proc.log()
    finally:
        proc.kill()


@pytest.fixture(scope="module")
def model_server(tmp_path_factory):
    folder = tiny_gpt2_folder(tmp_path_factory.mktemp("tiny-gpt2"))
    proc = ServerProcess("--model", str(folder), "--grace", "10", "--log-level", "INFO", ready_timeout=300)
    yield proc
    proc.kill()


@pytest.mark.slow
def test_every_rpc_against_a_real_model_then_sigterm(model_server):
    proc = model_server
    with proc.channel() as ch:
        assert _serving(ch) == health_pb2.HealthCheckResponse.SERVING
        assert _serving(ch, "ambit.v1.AmbitService") == health_pb2.HealthCheckResponse.SERVING

        from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

        assert "ambit.v1.AmbitService" in set(ProtoReflectionDescriptorDatabase(ch).get_services())

        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        info = stub.GetModelInfo(pb.GetModelInfoRequest(request_id="i"), timeout=10)
        assert info.model_loaded and info.vocab_size == 50257 and info.device == "cpu" and info.dtype == "float32"

        scores = stub.ScoreCandidates(
            pb.ScoreCandidatesRequest(
                request_id="s", prompt=PROMPT, candidates=[" exists x . man(x)", " forall x . man(x)"], end_marker=True
            ),
            timeout=120,
        )
        assert scores.request_id == "s" and len(scores.scores) == 2
        s0 = scores.scores[0]
        assert len(s0.tokens) == len(s0.token_probs) == len(s0.token_ids) > 0
        assert 0 < s0.min_prob <= 1 and s0.sum_logprob < 0 and s0.HasField("end_logprob")
        assert abs(sum(s.min_prob_renorm for s in scores.scores) - 1.0) < 1e-6

        batch = list(
            stub.ScoreCandidatesBatch(
                pb.ScoreCandidatesBatchRequest(
                    items=[
                        pb.ScoreCandidatesRequest(prompt=PROMPT, candidates=[" exists x . man(x)"]),
                        pb.ScoreCandidatesRequest(prompt="", candidates=["a"]),
                        pb.ScoreCandidatesRequest(prompt="Human: a dog\nComputer:", candidates=[" dog(x)"]),
                    ]
                ),
                timeout=120,
            )
        )
        by_index = {r.index: r for r in batch}
        assert set(by_index) == {0, 1, 2}
        assert by_index[1].status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        assert by_index[0].status.code == by_index[2].status.code == 0
        # the same candidate scores the same alone and in a batch
        assert by_index[0].response.scores[0].sum_logprob == pytest.approx(s0.sum_logprob, rel=1e-4)

        dist = stub.ParseDistribution(
            pb.ParseDistributionRequest(
                request_id="p", prompt=PROMPT, decoding=pb.DecodingParams(beam_size=2, max_tokens=12)
            ),
            timeout=300,
        )
        assert dist.request_id == "p" and dist.prompt == PROMPT
        for c in dist.candidates:
            assert c.parse_status != pb.PARSE_STATUS_UNSPECIFIED and len(c.tokens) == len(c.token_probs)
        if dist.candidates:
            assert sum(c.probability for c in dist.candidates) == pytest.approx(1.0)
            assert sum(k.probability_mass for k in dist.classes) + dist.unparsed_mass == pytest.approx(1.0)

        eq = stub.CheckEquivalence(
            pb.CheckEquivalenceRequest(a="exists x . forall y . saw(x, y)", b="forall y . exists x . saw(x, y)"),
            timeout=30,
        )
        assert eq.verdict == pb.VERDICT_NOT_EQUIVALENT
        eqb = list(
            stub.CheckEquivalenceBatch(
                pb.CheckEquivalenceBatchRequest(
                    items=[
                        pb.CheckEquivalenceRequest(a="exists x . man(x)", b="exists y . man(y)"),
                        pb.CheckEquivalenceRequest(a="exists x . man(", b="exists y . man(y)"),
                    ]
                ),
                timeout=30,
            )
        )
        assert {r.index: r.status.code for r in eqb} == {0: 0, 1: grpc.StatusCode.INVALID_ARGUMENT.value[0]}
        assert stub.Canonicalize(
            pb.CanonicalizeRequest(lf="( exists y ( man y ) )", format=pb.LF_FORMAT_LISP), timeout=10
        ).canonical == "( exists x ( man x ) )"
        radd = stub.VerifyRADD(pb.VerifyRADDRequest(instance_json=json.dumps(RADD_INSTANCE)), timeout=30)
        assert radd.answer == "2"

        # bad input: documented code, then the server still answers
        try:
            stub.Canonicalize(pb.CanonicalizeRequest(lf="exists x . man(x) AND"), timeout=10)
            raise AssertionError("malformed LF accepted")
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.INVALID_ARGUMENT and "character" in e.details()
        stats = stub.GetStats(pb.GetStatsRequest(), timeout=10)
        for method in ("ScoreCandidates", "ScoreCandidatesBatch", "ParseDistribution", "CheckEquivalence",
                       "CheckEquivalenceBatch", "Canonicalize", "VerifyRADD", "GetModelInfo"):
            assert stats.methods[method].requests >= 1, method
        assert stats.methods["Canonicalize"].errors == 1

        # SIGTERM with a request in flight: it completes, then the process exits 0 within the grace
        fut = stub.ScoreCandidates.future(pb.ScoreCandidatesRequest(prompt=PROMPT, candidates=[" man(x)"]), timeout=60)
        time.sleep(0.05)
        t0 = time.monotonic()
        assert proc.terminate(timeout=30) == 0
        assert time.monotonic() - t0 < 12
        assert fut.result().scores
    log = proc.log()
    assert "rpc method=ParseDistribution code=OK" in log and "ambit server stopped" in log


@pytest.mark.slow
def test_load_test_script_reports_json():
    import subprocess
    import sys

    from tests.paths import REPO

    out = subprocess.run(
        [sys.executable, "benchmarks/load_test.py", "--json", "--clients", "4", "--duration", "3",
         "--scoring-duration", "2", "--items", "10"],
        cwd=REPO, capture_output=True, text=True, timeout=1800,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    assert set(report["phases"]) == {"mixed", "scoring", "scoring_batch1"}
    assert report["errors"] == 0 and report["server_exit_codes"] == [0, 0]
    assert set(report["phases"]["mixed"]["per_rpc"]) == {"CheckEquivalence", "ScoreCandidates"}
    assert report["batching_gain"] > 0 and report["server_stats"]["batch1"]["mean_batch"] == 1.0
