"""What every AmbitService RPC does alike, in one `grpc.ServerInterceptor`: build the request's
`Deadline` from the call, hand it to the handler, turn the handler's exceptions into rich
statuses (`server.status`; an unexpected one is logged and answered INTERNAL, and the server
keeps serving), count the request in `Stats` and log one line for it. Other services (health,
reflection) pass through untouched."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Iterator

import grpc
from grpc_status import rpc_status

from .service import Deadline
from .stats import Stats
from .status import code_of, to_status

log = logging.getLogger("ambit.server")


class CallContext:
    """gRPC's servicer context with the request's `deadline` added (everything else delegated)."""

    def __init__(self, context: grpc.ServicerContext) -> None:
        self._context = context
        self.deadline = Deadline.after(context.time_remaining(), is_active=context.is_active,
                                       on_cancel=context.add_callback)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


class RpcInterceptor(grpc.ServerInterceptor):
    """Deadline, error mapping, statistics and the log line for the RPCs of `service`."""

    def __init__(self, stats: Stats, service: str) -> None:
        self.stats = stats
        self.prefix = f"/{service}/"

    def intercept_service(self, continuation: Callable, handler_call_details: Any) -> Any:
        handler = continuation(handler_call_details)
        name = handler_call_details.method
        if handler is None or not name.startswith(self.prefix):
            return handler
        method = name[len(self.prefix):]
        if handler.unary_unary is not None:
            behaviour = self._unary(method, handler.unary_unary)
            return grpc.unary_unary_rpc_method_handler(
                behaviour, handler.request_deserializer, handler.response_serializer
            )
        if handler.unary_stream is not None:
            behaviour = self._stream(method, handler.unary_stream)
            return grpc.unary_stream_rpc_method_handler(
                behaviour, handler.request_deserializer, handler.response_serializer
            )
        return handler

    def _unary(self, method: str, behaviour: Callable) -> Callable:
        def unary(request: Any, context: grpc.ServicerContext) -> Any:
            t0, code = time.perf_counter(), grpc.StatusCode.OK
            try:
                return behaviour(request, CallContext(context))
            except Exception as e:  # noqa: BLE001 - every failure becomes a status
                code = code_of(e)
                self._abort(method, request, context, e, code)
            finally:
                self.stats.record(method, code, time.perf_counter() - t0, request.request_id)

        return unary

    def _stream(self, method: str, behaviour: Callable) -> Callable:
        def stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            t0, code, items = time.perf_counter(), grpc.StatusCode.OK, 0
            try:
                for item in behaviour(request, CallContext(context)):
                    items += 1
                    yield item
            except Exception as e:  # noqa: BLE001 - every failure becomes a status
                code = code_of(e)
                self._abort(method, request, context, e, code)
            finally:
                self.stats.record(method, code, time.perf_counter() - t0, request.request_id, items)

        return stream

    @staticmethod
    def _abort(
        method: str, request: Any, context: grpc.ServicerContext, exc: Exception, code: grpc.StatusCode
    ) -> None:
        """End the call with the status for `exc` (raises, as `abort_with_status` does)."""
        if code is grpc.StatusCode.INTERNAL:
            log.error("internal error in %s (request_id=%s)", method, request.request_id, exc_info=exc)
        context.abort_with_status(rpc_status.to_status(to_status(exc)))


class ReadyGate(grpc.ServerInterceptor):
    """Answers UNAVAILABLE to the RPCs of `service` until `ready` is set (model loading, Prolog
    starting): a retryable status, so a client spreading work over several servers sends the
    call to another one instead of failing it; health and reflection pass through."""

    def __init__(self, ready: threading.Event, service: str) -> None:
        self.ready = ready
        self.prefix = f"/{service}/"

    def intercept_service(self, continuation: Callable, handler_call_details: Any) -> Any:
        handler = continuation(handler_call_details)
        if handler is None or self.ready.is_set() or not handler_call_details.method.startswith(self.prefix):
            return handler
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(_starting, handler.request_deserializer,
                                                       handler.response_serializer)
        return grpc.unary_stream_rpc_method_handler(_starting, handler.request_deserializer,
                                                    handler.response_serializer)


def _starting(request: Any, context: grpc.ServicerContext) -> None:
    context.abort(grpc.StatusCode.UNAVAILABLE, "server starting (model loading); retry or use another server")
