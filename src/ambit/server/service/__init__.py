"""The service core of ambit's server: AmbitService's operations on plain values, with no gRPC."""

from ambit.server.service.core import (
    DEFAULT_PROLOG_SECONDS, VERSION, AmbitCore, CanonicalQuery, ModelCounters, ModelReply, ServerInfo, ServerStats,
)
from ambit.server.service.deadline import Deadline
from ambit.server.service.distribution import Candidate, Distribution, MeaningClass
from ambit.server.service.entailment import EntailmentQuery
from ambit.server.service.equivalence import EquivalenceAnswer, EquivalenceQuery
from ambit.server.service.explain import ExplainQuery
from ambit.server.service.generation import GenerateQuery
from ambit.server.service.errors import (
    Cancelled, DeadlineExceeded, InvalidField, MalformedLF, ModelUnavailable, Overloaded, ServiceError,
)
from ambit.server.service.prompting import DecodingOptions, ParseQuery, PromptSpec, Vocabulary
from ambit.server.service.radd import RaddAnswer, RaddQuery
from ambit.server.service.scoring import ScoreQuery

__all__ = [
    "DEFAULT_PROLOG_SECONDS", "VERSION", "AmbitCore", "Cancelled", "CanonicalQuery", "Candidate",
    "Deadline", "DeadlineExceeded", "DecodingOptions", "Distribution", "EntailmentQuery",
    "EquivalenceAnswer", "EquivalenceQuery", "ExplainQuery", "GenerateQuery", "InvalidField",
    "MalformedLF", "MeaningClass", "ModelCounters", "ModelReply", "ModelUnavailable", "Overloaded",
    "ParseQuery", "PromptSpec", "RaddAnswer", "RaddQuery", "ScoreQuery", "ServerInfo",
    "ServerStats", "ServiceError", "Vocabulary",
]
