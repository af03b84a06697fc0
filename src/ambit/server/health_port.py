"""A second, plaintext port that serves only gRPC health (`--health-port`).

Kubernetes' `grpc:` probes and the image's HEALTHCHECK speak plaintext without a token; a server
on TLS cannot answer them on its own port. This port's health servicer is kept at the main
server's status (`RunningServer.mirror_health`: SERVING once ready, NOT_SERVING while draining or
while no Prolog worker can work) and it exposes nothing else.
"""

from __future__ import annotations

from concurrent import futures
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2_grpc


def serve_health(running: Any, host: str, port: int) -> tuple[grpc.Server, int]:
    """Start a plaintext server with only gRPC health on host:port, kept at the status of
    `running` (a `server.app.RunningServer`); the server and its bound port."""
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
