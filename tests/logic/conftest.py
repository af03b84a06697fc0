"""Fixtures of the logic tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def stub():
    """A stub of a model-less server on a free port, shared by a module's RPC tests."""
    grpc = pytest.importorskip("grpc")
    from ambit import server
    from ambit.proto.v1 import ambit_pb2_grpc

    running = server.serve(no_model=True, port=0)
    with grpc.insecure_channel(running.address) as ch:
        yield ambit_pb2_grpc.AmbitServiceStub(ch)
    running.stop(1)
