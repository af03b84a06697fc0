"""The web process's link to its gRPC server, for what needs the model (`/api/parse`, the model in
`/api/info`). A call carries the page's deadline and token and is cancelled with its call scope;
on the server all come from one client, so the page never takes more than one client's share.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from ambit.client.explanation import explanation
from ambit.logic.syntax.dialect import dialect
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc
from ambit.server.service import (
    Cancelled, DeadlineExceeded, InvalidField, ModelUnavailable, Overloaded, ServiceError,
)
from ambit.server.service.deadline import CallScope
from ambit.server.service.distribution import Candidate, Distribution, MeaningClass

INFO_EVERY_S = 2.0  # how long the model's description is reused
INFO_TIMEOUT_S = 2.0
STATUSES = {p: n for n, p in (("ok", pb.PARSE_STATUS_OK), ("invalid", pb.PARSE_STATUS_INVALID),
                              ("unfinished", pb.PARSE_STATUS_UNFINISHED))}


class _ParseErrorText:
    """A candidate's parse error as the server's message gives it (what the page shows)."""

    def __init__(self, message: str, position: int) -> None:
        self.message, self.pos = message, position

    def __str__(self) -> str:
        return f"{self.message} at character {self.pos}"


class Upstream:
    """The gRPC server at `address` (a `unix:` path of the server's, plaintext, in a private folder)."""

    def __init__(self, address: str, max_message_bytes: int) -> None:
        self.address = address
        self.max_message_bytes = max_message_bytes
        self._stub: Any = None
        self._info: tuple[float, tuple[bool, dict]] | None = None

    def _client(self) -> Any:
        if self._stub is None:  # made on the serving loop, at first use
            channel = grpc.aio.insecure_channel(self.address, options=[
                ("grpc.max_receive_message_length", self.max_message_bytes),
                ("grpc.max_send_message_length", self.max_message_bytes)])
            self._stub = ambit_pb2_grpc.AmbitServiceStub(channel)
        return self._stub

    async def model(self, authorization: str | None) -> tuple[bool, dict]:
        """(loaded, the model's description) as the server reports them (not loaded: no answer)."""
        now = time.monotonic()
        if self._info is not None and now - self._info[0] < INFO_EVERY_S:
            return self._info[1]
        try:
            info = await self._client().GetModelInfo(pb.GetModelInfoRequest(), timeout=INFO_TIMEOUT_S,
                                                     metadata=_metadata(authorization))
            out = (info.model_loaded, {"model_id": info.model_id, "device": info.device, "dtype": info.dtype,
                                       "kind": info.model_kind} if info.model_loaded else {})
        except grpc.aio.AioRpcError:
            out = (False, {})
        self._info = (now, out)
        return out

    async def parse(self, utterance: str, fmt: str, beam: int, explain: bool, call: CallScope,
                    authorization: str | None) -> dict:
        """The page's view of `ParseDistribution` for `utterance` (`views.distribution`)."""
        from ambit.web import views

        request = pb.ParseDistributionRequest(utterance=utterance, format=pb.LFFormat.Value(dialect(fmt).wire),
                                              decoding=pb.DecodingParams(beam_size=beam), explain=explain)
        rpc = self._client().ParseDistribution(request, timeout=call.deadline.remaining(),
                                               metadata=_metadata(authorization))
        loop = asyncio.get_running_loop()
        call.add_callback(lambda: loop.call_soon_threadsafe(rpc.cancel))
        try:
            msg = await rpc
        except asyncio.CancelledError:
            rpc.cancel()
            raise
        except grpc.aio.AioRpcError as e:
            raise _error(e) from None
        return views.distribution(_distribution(msg, utterance, fmt), fmt)


def _metadata(authorization: str | None) -> tuple:
    return (("authorization", authorization),) if authorization else ()


def _distribution(msg: Any, utterance: str, fmt: str) -> Distribution:
    candidates = [Candidate(
        text=c.text, logprob=c.logprob, min_prob=c.min_prob, token_probs=list(c.token_probs), tokens=list(c.tokens),
        probability=c.probability, parse_status=STATUSES.get(c.parse_status, "invalid"), canonical=c.canonical,
        parse_error=_ParseErrorText(c.parse_error.message, c.parse_error.position) if c.HasField("parse_error")
        else None, meaning_class=c.meaning_class) for c in msg.candidates]
    out = Distribution(msg.prompt, msg.model_id, candidates)
    out.classes = [MeaningClass(k.canonical, k.probability_mass, list(k.member_indices), k.paraphrase)
                   for k in msg.classes]
    out.classes_exact, out.unparsed_mass = msg.classes_exact, msg.unparsed_mass
    if msg.HasField("explanation"):
        out.explanation = explanation(msg.explanation, utterance, fmt)
    return out


def _error(e: grpc.aio.AioRpcError) -> ServiceError:
    """The service error for the server's status (its field and reason where it names them)."""
    code, message = e.code(), e.details() or ""
    if code is grpc.StatusCode.INVALID_ARGUMENT:
        status = rpc_status.from_call(e)
        for detail in status.details if status is not None else ():
            bad = error_details_pb2.BadRequest()
            if detail.Unpack(bad) and bad.field_violations:
                v = bad.field_violations[0]
                return InvalidField(v.field, v.description, reason=v.reason or "INVALID_FIELD")
        return InvalidField("utterance", message)
    if code is grpc.StatusCode.FAILED_PRECONDITION:
        return ModelUnavailable(message)
    if code is grpc.StatusCode.RESOURCE_EXHAUSTED:
        return Overloaded(message)
    if code is grpc.StatusCode.DEADLINE_EXCEEDED:
        return DeadlineExceeded(message or "deadline exceeded")
    if code is grpc.StatusCode.CANCELLED:
        return Cancelled(message or "cancelled")
    if code is grpc.StatusCode.UNAVAILABLE:
        return Overloaded(f"the model server is not available now: {message}")
    return ServiceError(f"the model server answered {code.name}: {message}")
