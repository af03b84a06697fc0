"""CheckEntailment on a server run with `--prover portfolio` and with the default (Prolog alone),
through real gRPC servers on localhost, real SWI-Prolog, E and Z3: Pelletier 63 (a group's
cancellation law), which Prolog alone cannot prove but E can, and whose one-element model Prolog
finds. The wire carries the part each prover settled, E's derivation and the function tables."""

from __future__ import annotations

import shutil

import grpc
import pytest

import server
from proto.ambit.v1 import ambit_pb2 as pb
from proto.ambit.v1 import ambit_pb2_grpc

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None or shutil.which("eprover") is None,
                                reason="SWI-Prolog and the E prover are needed (.ci/setup.sh installs both)")
pytest.importorskip("z3")

P63 = (["![X, Y, Z]: f(f(X, Y), Z) = f(X, f(Y, Z))", "![X]: f(a, X) = X", "![X]: ?[Y]: f(Y, X) = a"],
       "![X, Y, Z]: (f(X, Y) = f(Z, Y) => X = Z)")


def _ask(prover: str) -> pb.CheckEntailmentResponse:
    running = server.serve(no_model=True, port=0, prover=prover)
    try:
        with grpc.insecure_channel(running.address) as ch:
            return ambit_pb2_grpc.AmbitServiceStub(ch).CheckEntailment(pb.CheckEntailmentRequest(
                request_id="p63", premises=P63[0], conclusion=P63[1], format=pb.LF_FORMAT_TPTP,
                time_limit_ms=8000), timeout=60)
    finally:
        running.stop(1)


def test_prolog_alone_keeps_the_part_it_settled_with_its_function_table():
    r = _ask("prolog")
    assert r.verdict == pb.ENTAILMENT_VERDICT_UNKNOWN and r.reason
    assert not r.HasField("entailed") and r.HasField("refuted") and r.refuted is False
    assert list(r.model.domain) == ["d1"] and dict(r.model.functions) == {"f(d1, d1)": "d1"}
    assert not r.answered_by and not r.tstp


def test_the_portfolio_proves_it_with_e_and_says_so():
    r = _ask("portfolio")
    assert r.verdict == pb.ENTAILMENT_VERDICT_TRUE and r.entailed is True and r.refuted is False
    assert dict(r.answered_by) == {"with_negated_conclusion": "eprover", "with_conclusion": "prolog"}
    assert "$false" in r.tstp["with_negated_conclusion"] and dict(r.model.functions) == {"f(d1, d1)": "d1"}


def test_an_unknown_prover_is_refused_at_start():
    with pytest.raises(ValueError, match="prover must be one of prolog, portfolio"):
        server.serve(no_model=True, port=0, prover="vampire")
