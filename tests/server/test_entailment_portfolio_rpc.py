"""CheckEntailment on a server run with `--prover portfolio` and with the default (Prolog alone),
through real gRPC servers on localhost, real SWI-Prolog, E and Z3: Pelletier 38 beside an
idempotent function g, which Prolog alone cannot prove at its defaults but E and Z3 can, and whose
one-element model (g's table included) Prolog finds. The wire carries the part each prover
settled, E's derivation and the function tables. (Pelletier 63, the group cancellation law this
test used before, Prolog alone now proves: logic/engine/prolog/equational.pl.)"""

from __future__ import annotations

import shutil

import grpc
import pytest

from ambit import server
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None or shutil.which("eprover") is None,
                                reason="SWI-Prolog and the E prover are needed (.ci/setup.sh installs both)")
pytest.importorskip("z3")

PROBLEM = (["![X]: g(g(X)) = g(X)"],
           "(![X]: ((p(a) & (p(X) => ?[Y]: (p(Y) & r(X, Y)))) => ?[Z, W]: (p(Z) & r(X, W) & r(W, Z)))) <=> "
           "![X]: ((~p(a) | p(X) | ?[Z, W]: (p(Z) & r(X, W) & r(W, Z))) & "
           "(~p(a) | ~?[Y]: (p(Y) & r(X, Y)) | ?[Z, W]: (p(Z) & r(X, W) & r(W, Z))))")


def _ask(prover: str) -> pb.CheckEntailmentResponse:
    running = server.serve(no_model=True, port=0, prover=prover)
    try:
        with grpc.insecure_channel(running.address) as ch:
            return ambit_pb2_grpc.AmbitServiceStub(ch).CheckEntailment(pb.CheckEntailmentRequest(
                request_id="p38g", premises=PROBLEM[0], conclusion=PROBLEM[1], format=pb.LF_FORMAT_TPTP,
                time_limit_ms=8000), timeout=60)
    finally:
        running.stop(1)


def test_prolog_alone_keeps_the_part_it_settled_with_its_function_table():
    r = _ask("prolog")
    assert r.verdict == pb.ENTAILMENT_VERDICT_UNKNOWN and r.reason
    assert not r.HasField("entailed") and r.HasField("refuted") and r.refuted is False
    assert list(r.model.domain) == ["d1"] and dict(r.model.functions) == {"g(d1)": "d1"}
    assert not r.answered_by and not r.tstp


def test_the_portfolio_proves_it_and_says_who_did():
    r = _ask("portfolio")
    assert r.verdict == pb.ENTAILMENT_VERDICT_TRUE and r.entailed is True and r.refuted is False
    who = dict(r.answered_by)
    assert who["with_negated_conclusion"] in ("eprover", "z3") and who["with_conclusion"] in ("prolog", "eprover", "z3")
    if who["with_negated_conclusion"] == "eprover":  # E's derivation comes with its proof
        assert "$false" in r.tstp["with_negated_conclusion"]
    if who["with_conclusion"] == "prolog":  # Prolog's model, checked, with g's table
        assert dict(r.model.functions) == {"g(d1)": "d1"}


def test_an_unknown_prover_is_refused_at_start():
    with pytest.raises(ValueError, match="prover must be one of prolog, portfolio"):
        server.serve(no_model=True, port=0, prover="vampire")
