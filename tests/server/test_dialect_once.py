"""The dialect rule (docs/development.md, "The dialect"): one CheckEquivalence, followed on a real
server from its request to Prolog, resolves its dialect once (one lookup of a name in the
registry) and enters the registry (`logic/syntax/dialect.py`'s module functions) at most twice;
below that the `Dialect` value travels as itself."""

from __future__ import annotations

import collections
import threading

import grpc
import pytest

import ambit.logic.syntax.dialect as registry
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server.app import serve

REGISTRY_FILE = registry.__file__
PAIRS = {  # pairs that need reasoning (no shortcut answers them), one per kind of dialect
    pb.LF_FORMAT_FOL: ("exists x . forall y . saw(x, y)", "forall y . exists x . saw(x, y)"),
    pb.LF_FORMAT_FOLIO: ("∃x ∀y (Saw(x, y))", "∀y ∃x (Saw(x, y))"),
}


class Entries:
    """Calls into dialect.py's module functions from outside it, on the server's threads."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []
        self.counting = False
        self.test_thread = threading.get_ident()

    def __call__(self, frame, event, arg):
        if (event != "call" or not self.counting or frame.f_code.co_filename != REGISTRY_FILE
                or threading.get_ident() == self.test_thread):
            return
        caller = frame.f_back
        if caller is not None and caller.f_code.co_filename == REGISTRY_FILE:
            return  # inside the registry: one entry already counted
        if "." in frame.f_code.co_qualname:
            return  # a method of the Dialect value: the value at work, not a lookup
        self.calls.append((frame.f_code.co_name, frame.f_locals.get("d")))


@pytest.fixture(scope="module")
def traced():
    entries = Entries()
    threading.setprofile(entries)  # every thread started from here on (the handlers' threads start with a call)
    try:
        srv = serve(model="none", port=0)
        channel = grpc.insecure_channel(srv.address)
        yield entries, ambit_pb2_grpc.AmbitServiceStub(channel)
        channel.close()
        srv.stop(0)
    finally:
        threading.setprofile(None)


@pytest.mark.parametrize("fmt", sorted(PAIRS))
def test_one_equivalence_resolves_its_dialect_once(traced, fmt):
    entries, stub = traced
    a, b = PAIRS[fmt]
    request = pb.CheckEquivalenceRequest(a=a, b=b, format=fmt)
    stub.CheckEquivalence(request, timeout=60)  # first use: lazy imports and caches
    entries.calls.clear()
    entries.counting = True
    try:
        reply = stub.CheckEquivalence(request, timeout=60)
    finally:
        entries.counting = False
    assert reply.verdict == pb.VERDICT_NOT_EQUIVALENT  # reasoned out, by Prolog
    lookups = [name for name, d in entries.calls if name == "dialect" and isinstance(d, str)]
    assert lookups == ["dialect"], entries.calls  # the name resolved once
    assert len(entries.calls) <= 2, entries.calls


def test_the_counter_sees_a_lookup(traced):
    """The profiler does count lookups made on the server's threads (else the test above proves nothing)."""
    entries, _ = traced
    seen: list = []
    entries.counting = True
    try:
        t = threading.Thread(target=lambda: seen.append(registry.dialect("folio").name))
        t.start()
        t.join()
    finally:
        entries.counting = False
    assert seen == ["folio"] and ("dialect", "folio") in entries.calls
