"""Exit 0 when the ambit server answers gRPC health SERVING, 1 otherwise (the image's HEALTHCHECK).

`python healthcheck.py [--addr 127.0.0.1:50052] [--service NAME] [--timeout S]`, plaintext: it
dials the server's `--health-port`, which answers health alone, without TLS or a token.
"""

from __future__ import annotations

import argparse
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="healthcheck.py", description=__doc__.splitlines()[0])
    ap.add_argument("--addr", default="127.0.0.1:50052", help="the server's --health-port (default 127.0.0.1:50052)")
    ap.add_argument("--service", default="", help="service to ask about (default: the server as a whole)")
    ap.add_argument("--timeout", type=float, default=3.0, help="seconds for the call (default 3)")
    args = ap.parse_args(argv)
    channel = grpc.insecure_channel(args.addr)
    try:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout)
    except grpc.RpcError as e:
        print(f"unhealthy: {e.code().name}: {e.details()}", file=sys.stderr)
        return 1
    finally:
        channel.close()
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    print(status)
    return 0 if reply.status == health_pb2.HealthCheckResponse.SERVING else 1


if __name__ == "__main__":
    sys.exit(main())
