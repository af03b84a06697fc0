"""The AmbitService servicer, built from the RPC table (`ambit.proto.rpcs`): request → `to_core`
(`server.convert`) → the core's `service` method → `to_wire`; nothing here names an RPC.
Deadlines, statuses and statistics are the interceptor's (`server.guard.interceptor`)."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from ambit.proto.rpcs import RPCS, Rpc
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc

from ambit.server.convert import core as convert
from ambit.server.guard.interceptor import CallContext
from ambit.server.service import AmbitCore


def handler(rpc: Rpc) -> Callable[..., Any]:
    """The servicer method of `rpc`, made from its row."""
    to_core = getattr(convert, rpc.to_core) if rpc.to_core else None
    to_wire = getattr(convert, rpc.to_wire)

    def stream(self: AmbitServicer, request: Any, context: CallContext) -> Iterator[Any]:
        items, result = request.items, getattr(pb, rpc.response)
        queries = convert.read_items(items, to_core)
        for i, outcome in getattr(self.core, rpc.service)(queries, context.deadline):
            yield convert.batch_result(result, i, outcome, lambda answer: to_wire(items[i], answer))

    def unary(self: AmbitServicer, request: Any, context: CallContext) -> Any:
        call = getattr(self.core, rpc.service)
        return to_wire(request, call() if to_core is None else call(to_core(request), context.deadline))

    if rpc.streaming and to_core is None:
        raise ValueError(f"{rpc.name}: a batch RPC's row needs a to_core for its items")
    method = stream if rpc.streaming else unary
    method.__name__ = method.__qualname__ = rpc.name
    method.rpc = rpc  # type: ignore[attr-defined]
    return method


class AmbitServicer(ambit_pb2_grpc.AmbitServiceServicer):
    """AmbitService over an `AmbitCore`: one method per row of `ambit.proto.rpcs.RPCS`."""

    def __init__(self, core: AmbitCore) -> None:
        self.core = core


for _rpc in RPCS:
    setattr(AmbitServicer, _rpc.name, handler(_rpc))
