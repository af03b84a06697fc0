"""The parts of `fuzz_server.py` that reach the logic, and its attack scenarios.

Logic cases: random closed formulas built as ASTs (quantifiers, connectives, atoms over a small
vocabulary; the full dialects add ¬ → ↔ ⊕), rendered in every format (fol, lisp, folio, nltk,
tptp) and sent as CheckEquivalence(+Batch) (a formula against a variant of it: quantifier or
connective swapped, or alpha-renamed), CheckEntailment(+Batch) (stories of 1-3 premises),
Canonicalize, ExplainReadings and VerifyRADD (the demo instance, or it with a field dropped);
a quarter of the texts are then corrupted (a character dropped, doubled or swapped), which
keeps the parsers' error paths in the mix. An item "reached Prolog" when the logic decided it
(OK with a verdict) or a Prolog budget stopped it (DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED).

Scenarios (each `ok` or not, with its figures): silent calls, abandoned hard work, a killed
Prolog worker, deep nesting, oversized prompts.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import strategies as st

from ambit import logic
from ambit.logic.syntax.ast import And, Atom, Const, Iff, Implies, Not, Or, Quant, Var, Xor
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from tests.server.abuse import SilentCalls, pigeonhole
from tests.server.test_server import RADD_INSTANCE

FORMATS = {"fol": pb.LF_FORMAT_FOL, "lisp": pb.LF_FORMAT_LISP, "folio": pb.LF_FORMAT_FOLIO,
           "nltk": pb.LF_FORMAT_NLTK, "tptp": pb.LF_FORMAT_TPTP}
FULL = ("folio", "nltk", "tptp")
UNARY, BINARY, CONSTS, VARS = ("man", "dog", "walk"), ("saw", "likes"), ("Mary", "John"), ("x", "y", "z")
LOGIC_RPCS = {"CheckEquivalence", "CheckEquivalenceBatch", "CheckEntailment", "CheckEntailmentBatch",
              "VerifyRADD", "ExplainReadings"}
REACHED = {"OK", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"}


def _term(bound: tuple[str, ...]) -> st.SearchStrategy[Any]:
    return st.sampled_from([Var(v) for v in bound] + [Const(c) for c in CONSTS])


def _formula(full: bool, bound: tuple[str, ...] = (), depth: int = 3) -> st.SearchStrategy[Any]:
    """A closed formula: variables are used only under their quantifier."""
    atoms = st.one_of(
        st.builds(lambda p, t: Atom(p, (t,)), st.sampled_from(UNARY), _term(bound)),
        st.builds(lambda p, a, b: Atom(p, (a, b)), st.sampled_from(BINARY), _term(bound), _term(bound)))
    if depth == 0:
        return atoms
    sub = st.deferred(lambda: _formula(full, bound, depth - 1))
    options = [atoms,
               st.builds(lambda a, b: And((a, b)), sub, sub),
               st.builds(lambda a, b: Or((a, b)), sub, sub),
               st.sampled_from(VARS).flatmap(lambda v: st.builds(
                   lambda k, body: Quant(k, v, body), st.sampled_from(("exists", "forall")),
                   _formula(full, tuple(sorted(set(bound) | {v})), depth - 1)))]
    if full:
        options += [st.builds(Not, sub), st.builds(Implies, sub, sub), st.builds(Iff, sub, sub),
                    st.builds(Xor, sub, sub)]
    return st.one_of(*options)


def _variant(f: Any) -> Any:
    """A formula close to `f`: the first quantifier or connective flipped (else `f` itself)."""
    if isinstance(f, Quant):
        return Quant("forall" if f.kind == "exists" else "exists", f.var, f.body)
    if isinstance(f, And):
        return Or(f.children)
    if isinstance(f, Or):
        return And(f.children)
    if isinstance(f, Not):
        return f.body
    return f


def _corrupt(text: str, how: int, at: int) -> str:
    if not text:
        return text
    i = at % len(text)
    return [text[:i] + text[i + 1:], text[:i] + text[i] + text[i:], text[:i] + text[i + 1:i + 2] + text[i] + text[i + 2:],
            text[:i] + "(" + text[i:]][how % 4]


def _texts(fmt: str) -> st.SearchStrategy[tuple[str, str]]:
    """(formula, variant) rendered in `fmt`; a quarter of them corrupted."""
    full = fmt in FULL

    def render(f: Any, mutate: tuple[int, int, int]) -> tuple[str, str]:
        a, b = logic.render(f, fmt), logic.render(_variant(f), fmt)
        if mutate[0] == 0:
            a = _corrupt(a, mutate[1], mutate[2])
        return a, b

    return st.builds(render, _formula(full), st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 500)))


def _budget() -> st.SearchStrategy[int]:
    return st.sampled_from([0, 200, 500, 1000])


def _equivalence(fmt: str) -> st.SearchStrategy[Any]:
    return st.builds(lambda ab, ms: pb.CheckEquivalenceRequest(a=ab[0], b=ab[1], format=FORMATS[fmt], time_limit_ms=ms),
                     _texts(fmt), _budget())


def _entailment(fmt: str) -> st.SearchStrategy[Any]:
    return st.builds(lambda ps, c, ms: pb.CheckEntailmentRequest(premises=[p[0] for p in ps], conclusion=c[1],
                                                                 format=FORMATS[fmt], time_limit_ms=ms),
                     st.lists(_texts(fmt), min_size=1, max_size=3), _texts(fmt), _budget())


def _radd() -> st.SearchStrategy[Any]:
    def build(drop: int) -> Any:
        inst = json.loads(json.dumps(RADD_INSTANCE))
        keys = sorted(inst)
        if drop < len(keys):
            del inst[keys[drop]]
        return pb.VerifyRADDRequest(instance_json=json.dumps(inst))

    return st.builds(build, st.integers(0, 3 * len(RADD_INSTANCE)))


def logic_case() -> st.SearchStrategy[tuple[str, Any, bool]]:
    """(rpc name, request, raw=False) for a request made to reach the logic."""
    fmts = st.sampled_from(sorted(FORMATS))
    amp = st.sampled_from(("fol", "lisp"))
    return st.one_of(
        fmts.flatmap(lambda f: _equivalence(f).map(lambda r: ("CheckEquivalence", r, False))),
        fmts.flatmap(lambda f: st.lists(_equivalence(f), min_size=1, max_size=12).map(
            lambda items: ("CheckEquivalenceBatch", pb.CheckEquivalenceBatchRequest(items=items), False))),
        fmts.flatmap(lambda f: _entailment(f).map(lambda r: ("CheckEntailment", r, False))),
        fmts.flatmap(lambda f: st.lists(_entailment(f), min_size=1, max_size=12).map(
            lambda items: ("CheckEntailmentBatch", pb.CheckEntailmentBatchRequest(items=items), False))),
        amp.flatmap(lambda f: _texts(f).map(lambda ab: ("Canonicalize", pb.CanonicalizeRequest(
            lf=ab[0], format=FORMATS[f]), False))),
        _texts("fol").map(lambda ab: ("ExplainReadings", pb.ExplainReadingsRequest(
            utterance="every man saw a dog", lfs=list(ab), time_limit_ms=500), False)),
        _radd().map(lambda r: ("VerifyRADD", r, False)),
    )


# --------------------------------------------------------------------------- scenarios


def _hang_guarded(fn, guard: float = 30.0) -> tuple[Any, float]:
    t0 = time.monotonic()
    return fn(guard), time.monotonic() - t0


def scenario_silent(address: str, n: int = 300) -> dict:
    with SilentCalls(address, n, connections=5), grpc.insecure_channel(address) as ch:
        _, health_s = _hang_guarded(lambda g: health_pb2_grpc.HealthStub(ch).Check(
            health_pb2.HealthCheckRequest(), timeout=g))
        _, rpc_s = _hang_guarded(lambda g: ambit_pb2_grpc.AmbitServiceStub(ch).Canonicalize(
            pb.CanonicalizeRequest(lf="exists x . man(x)"), timeout=g))
    return {"silent_calls": n, "health_ms": round(1000 * health_s, 1), "rpc_ms": round(1000 * rpc_s, 1),
            "ok": max(health_s, rpc_s) < 1.0}


def scenario_abandoned(address: str, n: int = 8) -> dict:
    premises, conclusion = pigeonhole(10)  # past any budget (7 holes: settled in 0.5 s by the Herbrand/SAT stage)
    hard = pb.CheckEntailmentRequest(premises=premises, conclusion=conclusion, format=pb.LF_FORMAT_FOLIO,
                                     time_limit_ms=30000)
    with grpc.insecure_channel(address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        calls = [stub.CheckEntailment.future(hard, timeout=1.0) for _ in range(n)]
        for c in calls:
            try:
                c.result()
            except grpc.RpcError:
                pass
        _, s = _hang_guarded(lambda g: stub.CheckEntailment(pb.CheckEntailmentRequest(
            premises=["P(a)"], conclusion="P(a)", format=pb.LF_FORMAT_FOLIO), timeout=g))
    return {"abandoned_calls": n, "next_call_ms": round(1000 * s, 1), "ok": s < 1.0}


def scenario_killed_worker(address: str, server_pid: int) -> dict:
    import psutil

    def workers() -> list[psutil.Process]:
        return [p for p in psutil.Process(server_pid).children()
                if "spawn_main" in " ".join(p.cmdline()) and "resource_tracker" not in " ".join(p.cmdline())]

    premises, conclusion = pigeonhole(4)
    items = [pb.CheckEntailmentRequest(premises=premises, conclusion=conclusion, format=pb.LF_FORMAT_FOLIO)
             for _ in range(24)]
    out: list = []
    with grpc.insecure_channel(address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        t = threading.Thread(target=lambda: out.extend(stub.CheckEntailmentBatch(
            pb.CheckEntailmentBatchRequest(items=items), timeout=120)))
        t.start()
        time.sleep(1.0)
        victims = workers()
        if victims:
            os.kill(victims[0].pid, signal.SIGKILL)
        t.join(130)
    answered = sum(r.status.code == 0 for r in out)
    return {"killed": victims[0].pid if victims else None, "items": len(items), "answered_ok": answered,
            "ok": bool(victims) and answered == len(items)}


def scenario_deep(address: str) -> dict:
    cases = {"folio": ("¬" * 400 + "P(a)", pb.LF_FORMAT_FOLIO), "nltk": ("-" * 500 + "p(a)", pb.LF_FORMAT_NLTK),
             "tptp": ("~" * 500 + "p(a)", pb.LF_FORMAT_TPTP), "folio_forall": ("∀x " * 500 + "P(x)", pb.LF_FORMAT_FOLIO)}
    codes = {}
    with grpc.insecure_channel(address) as ch:
        stub = ambit_pb2_grpc.AmbitServiceStub(ch)
        for name, (lf, fmt) in cases.items():
            try:
                stub.CheckEquivalence(pb.CheckEquivalenceRequest(a=lf, b=lf, format=fmt), timeout=30)
                codes[name] = "OK"
            except grpc.RpcError as e:
                codes[name] = e.code().name
        try:
            stub.VerifyRADD(pb.VerifyRADDRequest(instance_json="[" * 32000 + "]" * 32000), timeout=30)
            codes["radd_json"] = "OK"
        except grpc.RpcError as e:
            codes["radd_json"] = e.code().name
    return {"codes": codes, "ok": set(codes.values()) == {"INVALID_ARGUMENT"}}


def scenario_oversized_prompt(address: str) -> dict:
    with grpc.insecure_channel(address, options=[("grpc.max_send_message_length", 64 << 20)]) as ch:
        try:
            ambit_pb2_grpc.AmbitServiceStub(ch).ScoreCandidates(
                pb.ScoreCandidatesRequest(prompt="x" * 70_000, candidates=[" a"]), timeout=30)
            code = "OK"
        except grpc.RpcError as e:
            code = e.code().name
    return {"code": code, "ok": code == "INVALID_ARGUMENT"}


def scenarios(address: str, server_pid: int) -> dict:
    out = {"silent_calls": scenario_silent(address), "abandoned_hard_work": scenario_abandoned(address),
           "killed_worker": scenario_killed_worker(address, server_pid), "deep_nesting": scenario_deep(address),
           "oversized_prompt": scenario_oversized_prompt(address)}
    out["ok"] = all(s["ok"] for s in out.values())
    return out
