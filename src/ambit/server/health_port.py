"""A second, plaintext port that serves only gRPC health (`--health-port`), for probes that speak
no TLS and no token; kept at the main server's status (`RunningServer.mirror_health`)."""

from __future__ import annotations

from concurrent import futures
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2_grpc


def serve_health(running: Any, host: str, port: int) -> tuple[grpc.Server, int]:
    """(server, bound port) on host:port, at `running`'s status (a `server.app.RunningServer`)."""
    servicer = health.HealthServicer()
    running.mirror_health(servicer)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="ambit-health"))
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    try:
        bound = server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:  # grpcio raises where older releases returned 0
        bound = 0
    if bound == 0:
        raise OSError(f"cannot bind the health port {host}:{port}")
    server.start()
    return server, bound
