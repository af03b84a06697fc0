"""What every AmbitService RPC does alike, in `grpc.aio` server interceptors: `RpcInterceptor`
opens the call's scope (`AmbitCore.open_call`), waits for its slot, runs the handler on the pool,
maps its exceptions to rich statuses (`server.status`) and counts it; `ReadyGate` answers
UNAVAILABLE while the server starts or drains. Refusals never read the message."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from concurrent.futures import Executor
from typing import Any, AsyncIterator, Callable

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from ambit.server.service.deadline import CallScope, Refused
from ambit.server.stats import Stats
from ambit.server.status import code_of, to_status

log = logging.getLogger("ambit.server")

_END = object()


class CallContext:
    """What a handler sees of its call: the `deadline` (expired once the call ends) and the peer."""

    def __init__(self, context: grpc.aio.ServicerContext, call: CallScope) -> None:
        self._context = context
        self.call = call
        self.deadline = call.deadline
        self.scope = call.scope
        # `run(fn, *args)` with the Prolog work cancellable; `add_callback` runs when the call ends
        self.run, self.is_active, self.add_callback = call.run, call.is_active, call.add_callback
        context.add_done_callback(call.end)

    def peer(self) -> str:
        return self._context.peer()


def retry_status(message: str, retry_after_s: float) -> grpc.Status:
    """RESOURCE_EXHAUSTED with `message` and a `google.rpc.RetryInfo` detail (admission refused)."""
    delay = duration_pb2.Duration()
    delay.FromMilliseconds(int(retry_after_s * 1000))
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.RetryInfo(retry_delay=delay))
    return rpc_status.to_status(status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED, message=message,
                                                  details=[detail]))


class InFlight:
    """How many AmbitService calls are running (for the drain at shutdown)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._n = 0

    def enter(self) -> None:
        with self._cond:
            self._n += 1

    def leave(self) -> None:
        with self._cond:
            self._n -= 1
            self._cond.notify_all()

    def wait_idle(self, timeout: float | None) -> bool:
        """Block until no call runs (True) or `timeout` passes (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._n == 0, timeout)


class RpcInterceptor(grpc.aio.ServerInterceptor):
    """Call scope, thread pool, error mapping, statistics and log line for `service`'s RPCs."""

    def __init__(self, stats: Stats, service: str, executor: Executor,
                 open_call: Callable[[float | None, str], CallScope] = CallScope,
                 in_flight: InFlight | None = None) -> None:
        self.stats = stats
        self.prefix = f"/{service}/"
        self.executor = executor
        self.open_call = open_call
        self.in_flight = in_flight or InFlight()

    async def intercept_service(self, continuation: Callable, handler_call_details: Any) -> Any:
        handler = await continuation(handler_call_details)
        name = handler_call_details.method
        if handler is None or not name.startswith(self.prefix):
            return handler
        method = name[len(self.prefix):]
        read = _tolerant(handler.request_deserializer)
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(
                self._unary(method, handler.unary_unary), read, handler.response_serializer)
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(
                self._stream(method, handler.unary_stream), read, handler.response_serializer)
        return handler

    def _unary(self, method: str, behaviour: Callable) -> Callable:
        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            t0, code, peer = time.perf_counter(), grpc.StatusCode.OK, context.peer()
            await self._refuse_undecodable(method, request, context, t0)
            call = CallContext(context, self.open_call(context.time_remaining(), peer))
            finish = self._finisher(method, request, t0)
            work: asyncio.Future | None = None
            try:
                await call.call.admit()
                loop = asyncio.get_running_loop()
                work = loop.run_in_executor(self.executor, call.run, behaviour, request, call)
                call.call.release_when_done(work)  # the slot is held while its thread works
                return await work
            except asyncio.CancelledError:
                code = _ended_code(call)
                raise
            except Exception as e:  # noqa: BLE001 - every failure becomes a status
                code = code_of(e) if call.is_active() else _ended_code(call)
                finish(code)  # counted before the client can see the status
                await self._abort(method, request, context, e, code)
            finally:
                if work is None:
                    call.call.release()
                finish(code)

        return unary

    def _stream(self, method: str, behaviour: Callable) -> Callable:
        async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            t0, code, items, peer = time.perf_counter(), grpc.StatusCode.OK, 0, context.peer()
            await self._refuse_undecodable(method, request, context, t0)
            call = CallContext(context, self.open_call(context.time_remaining(), peer))
            loop = asyncio.get_running_loop()
            finish = self._finisher(method, request, t0)
            results: Any = None
            step: asyncio.Future = loop.create_future()
            step.set_result(None)
            try:
                await call.call.admit()
                step = loop.run_in_executor(self.executor, behaviour, request, call)
                results = await step
                while True:
                    step = loop.run_in_executor(self.executor, call.run, next, results, _END)
                    item = await step
                    if item is _END:
                        break
                    items += 1
                    yield item
            except (asyncio.CancelledError, GeneratorExit):
                code = _ended_code(call)
                if results is not None:  # close it (its `finally` cancels its work) once its step ends
                    step.add_done_callback(lambda _s: self._later(_close, results))
                raise
            except Exception as e:  # noqa: BLE001 - every failure becomes a status
                code = code_of(e) if call.is_active() else _ended_code(call)
                finish(code, items)  # counted before the client can see the status
                await self._abort(method, request, context, e, code)
            finally:
                call.call.release_when_done(step)  # once the stream's last step has stopped
                finish(code, items)

        return stream

    def _later(self, fn: Callable[..., Any], *args: Any) -> None:
        """`fn(*args)` on the handler pool, unless the server is already shutting it down."""
        with contextlib.suppress(RuntimeError):
            self.executor.submit(fn, *args)

    def _finisher(self, method: str, request: Any, t0: float) -> Callable[..., None]:
        """Counts the call in flight; the function that ends it, once: counts it and logs its line."""
        done = []
        self.in_flight.enter()

        def finish(code: grpc.StatusCode, items: int = 0) -> None:
            if not done:
                done.append(True)
                self.stats.record(method, code, time.perf_counter() - t0, request.request_id, items)
                self.in_flight.leave()

        return finish

    async def _refuse_undecodable(self, method: str, request: Any, context: grpc.aio.ServicerContext,
                                  t0: float) -> None:
        """INVALID_ARGUMENT for a message that is not one of the method's request type."""
        if isinstance(request, Undecodable):
            self.stats.record(method, grpc.StatusCode.INVALID_ARGUMENT, time.perf_counter() - t0)
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(request))

    @staticmethod
    async def _abort(
        method: str, request: Any, context: grpc.aio.ServicerContext, exc: Exception, code: grpc.StatusCode
    ) -> None:
        """End the call with the status for `exc` (raises, as `abort` does)."""
        if code is grpc.StatusCode.INTERNAL:
            log.error("internal error in %s (request_id=%s)", method, request.request_id, exc_info=exc)
        if isinstance(exc, Refused):  # admission refused it: with the retry hint
            await _abort_with(context, retry_status(exc.message, exc.retry_after_s))
        await _abort_with(context, rpc_status.to_status(to_status(exc)))


class Undecodable:
    """A request message that did not decode: what it should have been, and why not."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __str__(self) -> str:
        return f"request message does not decode: {self.error}"


def _tolerant(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any]:
    """`deserializer` giving an `Undecodable` (INVALID_ARGUMENT, not UNKNOWN)."""

    def read(data: bytes) -> Any:
        try:
            return deserializer(data) if deserializer is not None else data
        except Exception as e:  # noqa: BLE001 - protobuf's DecodeError and friends
            return Undecodable(e)

    return read


def _close(results: Any) -> None:
    """Close a handler's result generator that its call left (runs its `finally` blocks)."""
    try:
        results.close()
    except Exception:  # noqa: BLE001 - a generator that fails to close is only logged
        log.exception("closing an abandoned stream failed")


def _ended_code(call: CallContext) -> grpc.StatusCode:
    """Why a call ended before its handler did: its deadline passed, or its client left."""
    left = call.deadline.remaining()
    return grpc.StatusCode.DEADLINE_EXCEEDED if left is not None and left <= 0 else grpc.StatusCode.CANCELLED


async def _abort_with(context: grpc.aio.ServicerContext, status: grpc.Status) -> None:
    """End the call with `status` (code, message and details in the trailers); raises."""
    await context.abort(status.code, status.details, status.trailing_metadata)


class ReadyGate(grpc.aio.ServerInterceptor):
    """UNAVAILABLE (retryable: a client may try another server) to the RPCs of `service` until
    `ready` is set and once `draining` is; health and reflection pass through."""

    def __init__(self, ready: threading.Event, service: str, draining: threading.Event | None = None) -> None:
        self.ready = ready
        self.draining = draining or threading.Event()
        self.prefix = f"/{service}/"

    async def intercept_service(self, continuation: Callable, handler_call_details: Any) -> Any:
        if not handler_call_details.method.startswith(self.prefix):
            return await continuation(handler_call_details)
        if self.draining.is_set():
            return refusal(grpc.StatusCode.UNAVAILABLE, "server shutting down; retry or use another server")
        if not self.ready.is_set():
            return refusal(grpc.StatusCode.UNAVAILABLE, "server starting (model loading); retry or use another server")
        return await continuation(handler_call_details)


def refusal(code: grpc.StatusCode, message: str) -> grpc.RpcMethodHandler:
    """A handler ending any call with `code`: client-streaming in shape (not on the wire), so the
    request stream is left unread and a refused caller's megabytes are never parsed."""

    async def refuse(_requests: Any, context: grpc.aio.ServicerContext) -> None:
        await context.abort(code, message)

    return grpc.stream_unary_rpc_method_handler(refuse)
