"""The one table of AmbitService's RPCs: messages, streaming, the core method, the `server.convert`
functions either side, the `Client` methods and whether it needs the model. The servicer is built
from it (unary: `to_wire(request, core.<service>(to_core(request), deadline))`; a batch: the same
per item). Held to the .proto, core, client and fake server by tests/proto/test_rpcs.py."""

from __future__ import annotations

from dataclasses import dataclass

SERVICE = "AmbitService"  # in package ambit.v1


@dataclass(frozen=True)
class Rpc:
    """One RPC of AmbitService, and where it is written down."""

    name: str  # the method, as in ambit.proto
    request: str  # the request message
    response: str  # the response message; of a streaming RPC, the message sent once per item
    streaming: bool  # server-streaming: a batch RPC, one result per input item
    service: str  # the `AmbitCore` method that answers it
    to_core: str | None  # the `server.convert` function from the request (a batch: each item) to the core's query
    to_wire: str  # the `server.convert` function from the core's answer (a batch: each item's) to the response
    convert: str  # the `server.convert` module that holds both: "logic" or "model"
    client: tuple[str, ...]  # the `Client` methods that call it
    needs_model: bool  # answered FAILED_PRECONDITION by a server without a model (`--no-model`)


def _batch(name: str, **fields) -> Rpc:
    """A server-streaming batch RPC: `NameBatchRequest` in, one `NameBatchResult` per item out."""
    return Rpc(name=name, request=f"{name}Request", response=f"{name}Result", streaming=True, **fields)


def _unary(name: str, **fields) -> Rpc:
    """A unary RPC: `NameRequest` in, `NameResponse` out."""
    return Rpc(name=name, request=f"{name}Request", response=f"{name}Response", streaming=False, **fields)


# In the order of ambit.proto's service block.
RPCS: tuple[Rpc, ...] = (
    _unary("ParseDistribution", service="parse_distribution", to_core="parse_query",
           to_wire="distribution_response", convert="model",
           client=("parse_distribution", "parse_explained"), needs_model=True),
    _unary("ScoreCandidates", service="score", to_core="score_query", to_wire="score_response",
           convert="model", client=("score",), needs_model=True),
    _batch("ScoreCandidatesBatch", service="score_batch", to_core="score_query", to_wire="score_response",
           convert="model", client=("score_batch",), needs_model=True),
    _unary("CheckEquivalence", service="check_equivalence", to_core="equivalence_query",
           to_wire="equivalence_response", convert="logic", client=("equivalent",), needs_model=False),
    _batch("CheckEquivalenceBatch", service="check_equivalence_batch", to_core="equivalence_query",
           to_wire="equivalence_response", convert="logic", client=("equivalent_batch",), needs_model=False),
    _unary("Canonicalize", service="canonicalize", to_core="canonical_query", to_wire="canonical_response",
           convert="logic", client=("canonicalize",), needs_model=False),
    _unary("VerifyRADD", service="verify_radd", to_core="radd_query", to_wire="radd_response",
           convert="logic", client=("verify_radd",), needs_model=False),
    _unary("GetModelInfo", service="info", to_core=None, to_wire="model_info_response",
           convert="model", client=("info",), needs_model=False),
    _unary("GetStats", service="server_stats", to_core=None, to_wire="stats_response",
           convert="model", client=("stats",), needs_model=False),
    _unary("ExplainReadings", service="explain_readings", to_core="explain_query", to_wire="explain_response",
           convert="logic", client=("explain_readings",), needs_model=False),
    _unary("Generate", service="generate", to_core="generate_query", to_wire="generate_response",
           convert="model", client=("generate",), needs_model=True),
    _unary("CheckEntailment", service="check_entailment", to_core="entailment_query",
           to_wire="entailment_response", convert="logic", client=("check_entailment",), needs_model=False),
    _batch("CheckEntailmentBatch", service="check_entailment_batch", to_core="entailment_query",
           to_wire="entailment_response", convert="logic", client=("check_entailment_batch",),
           needs_model=False),
)

BY_NAME: dict[str, Rpc] = {rpc.name: rpc for rpc in RPCS}
MODEL_RPCS: frozenset[str] = frozenset(rpc.name for rpc in RPCS if rpc.needs_model)


def markdown_table() -> str:
    """The table as the Markdown table of docs/server.md ("RPCs"), which a test holds to it."""
    rows = ["| RPC | request → response | client | needs the model |", "|---|---|---|---|"]
    for rpc in RPCS:
        answer = f"stream of `{rpc.response}`" if rpc.streaming else f"`{rpc.response}`"
        client = ", ".join(f"`{m}`" for m in rpc.client)
        model = "yes" if rpc.needs_model else "no"
        rows.append(f"| `{rpc.name}` | `{rpc.request}` → {answer} | {client} | {model} |")
    return "\n".join(rows)
