"""Server reflection as ``grpc.reflection.v1`` (current grpcurl) and ``v1alpha`` (older clients).
grpcio-reflection ships only v1alpha; v1 is the same on the wire, so one servicer answers both."""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from grpc_reflection.v1alpha import _async as aio_reflection
from grpc_reflection.v1alpha import reflection
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"
SERVICE_NAMES = (V1_SERVICE_NAME, reflection.SERVICE_NAME)


def enable_reflection(service_names: Iterable[str], server: grpc.Server | grpc.aio.Server) -> None:
    """Serve reflection for ``service_names`` (and both reflection services) on ``server``."""
    kind = aio_reflection if isinstance(server, grpc.aio.Server) else reflection
    servicer = kind.ReflectionServicer((*service_names, *SERVICE_NAMES))
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
        V1_SERVICE_NAME, {"ServerReflectionInfo": v1}),))
